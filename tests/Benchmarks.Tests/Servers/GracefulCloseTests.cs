using System.Net.Sockets;
using System.Text;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// A close the server decides must not destroy what it already answered: with input still
/// arriving, a plain close() makes the kernel send a reset that discards responses in flight.
/// Also the HTTP/1.1 rules around a close and the request line, on real processes.
/// </summary>
public sealed class GracefulCloseTests
{
    private const string Get = "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n";

    public static TheoryData<string> RawServers => new() { "sockets", "libuv", "iouring" };

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Twenty_thousand_pipelined_requests_then_a_bad_one_are_all_answered(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        var payload = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat(Get, 20_000)) + "BAD\r\n\r\n" + string.Concat(Enumerable.Repeat(Get, 100)));
        for (var round = 0; round < 5; round++)
        {
            using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            await client.ConnectAsync(System.Net.IPAddress.Loopback, serve.Port);
            var sending = client.SendAsync(payload, SocketFlags.None);
            var statuses = await CountStatusLinesAsync(client);
            await IgnoreFailure(sending);
            Assert.Equal(20_001, statuses);
        }
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task A_body_over_the_limit_gets_its_413_while_the_client_is_still_sending(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        var chunk = new byte[16 * 1024];
        for (var round = 0; round < 5; round++)
        {
            using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            await client.ConnectAsync(System.Net.IPAddress.Loopback, serve.Port);
            await client.SendAsync(Encoding.ASCII.GetBytes("POST /plaintext HTTP/1.1\r\nHost: t\r\nContent-Length: 3000000\r\n\r\n"), SocketFlags.None);
            try
            {
                for (var sent = 0; sent < 3_000_000; sent += chunk.Length)
                {
                    await client.SendAsync(chunk, SocketFlags.None);
                }
            }
            catch (SocketException)
            {
            }

            var received = await ReadAllAsync(client);
            Assert.StartsWith("HTTP/1.1 413 ", received, StringComparison.Ordinal);
        }
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Nothing_is_answered_after_connection_close(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        using var client = await RawClient.ConnectAsync(serve.Port);
        await client.SendAsync("GET /plaintext HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n" + Get + Get);
        var (text, closed) = await client.ReadAsync();
        Assert.True(closed);
        Assert.Equal(1, CountOf(text, "HTTP/1.1 "));
        Assert.Contains("Connection: close", text, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Request_line_rules_414_505_empty_lines_and_host(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        foreach (var (request, status) in new[]
        {
            ("\r\n\r\n" + Get, "200"),
            ("GET /" + new string('a', 9000) + " HTTP/1.1\r\nHost: t\r\n\r\n", "414"),
            ("GET /plaintext HTTP/1.2\r\nHost: t\r\n\r\n", "505"),
            ("GET /plaintext HTTP/1.1\r\nHost: a b\r\n\r\n", "400"),
            ("GET /plaintext HTTP/1.1\r\nHost: user@t\r\n\r\n", "400"),
        })
        {
            using var client = await RawClient.ConnectAsync(serve.Port);
            await client.SendAsync(request);
            var (text, _) = await client.ReadAsync(t => t.Contains("\r\n\r\n", StringComparison.Ordinal) && (status != "200" || t.EndsWith("Hello, World!",
                StringComparison.Ordinal)));
            Assert.StartsWith($"HTTP/1.1 {status} ", text, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task A_websocket_handshake_with_two_keys_is_refused()
    {
        await using var serve = await ServeProcess.StartAsync("sockets", "ws-echo");
        const string Key = "dGhlIHNhbXBsZSBub25jZQ==";
        using var client = await RawClient.ConnectAsync(serve.Port);
        await client.SendAsync($"GET /plain HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: " +
            $"13\r\nSec-WebSocket-Key: {Key}\r\nSec-WebSocket-Key: {Key}\r\n\r\n");
        var (text, closed) = await client.ReadAsync();
        Assert.StartsWith("HTTP/1.1 400 ", text, StringComparison.Ordinal);
        Assert.True(closed);
    }

    private static async Task<int> CountStatusLinesAsync(Socket client)
    {
        var text = await ReadAllAsync(client);
        return CountOf(text, "HTTP/1.1 ");
    }

    private static async Task<string> ReadAllAsync(Socket client)
    {
        var received = new StringBuilder();
        var buffer = new byte[64 * 1024];
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        try
        {
            while (true)
            {
                var read = await client.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
                if (read == 0)
                {
                    break;
                }

                received.Append(Encoding.ASCII.GetString(buffer, 0, read));
            }
        }
        catch (SocketException)
        {
            // A reset: what arrived before it is all there is.
        }

        return received.ToString();
    }

    private static int CountOf(string text, string value)
    {
        var count = 0;
        for (var at = text.IndexOf(value, StringComparison.Ordinal); at >= 0; at = text.IndexOf(value, at + value.Length, StringComparison.Ordinal))
        {
            count++;
        }

        return count;
    }

    private static async Task IgnoreFailure(Task task)
    {
        try
        {
            await task;
        }
        catch (SocketException)
        {
        }
    }
}

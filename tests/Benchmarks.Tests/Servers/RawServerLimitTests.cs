using System.Net.Sockets;
using System.Text;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// The raw server models' limits, against real processes: big chunked bodies are answered,
/// endless input and unread output do not grow memory, slow and idle clients are timed out,
/// and running out of file descriptors neither spins nor wedges the server.
/// </summary>
[LongRunning]
public sealed class RawServerLimitTests
{
    private const string Get = "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n";

    public static TheoryData<string> RawServers => new() { "sockets", "libuv", "iouring" };

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task A_chunked_body_of_360_000_one_byte_chunks_is_answered(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        using var client = await RawClient.ConnectAsync(serve.Port);
        var body = new StringBuilder("POST /plaintext HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (var i = 0; i < 360_000; i++)
        {
            body.Append("1\r\nx\r\n");
        }

        var cpuBefore = serve.CpuSeconds();
        var sending = client.Socket.SendAsync(Encoding.ASCII.GetBytes(body.Append("0\r\n\r\n").ToString()), SocketFlags.None);
        var (text, _) = await client.ReadAsync(t => t.EndsWith("Hello, World!", StringComparison.Ordinal), timeoutMs: 20_000);
        await sending;
        Assert.StartsWith("HTTP/1.1 200 OK", text, StringComparison.Ordinal);
        Assert.True(serve.CpuSeconds() - cpuBefore < 2, $"2 MB of chunked body cost {serve.CpuSeconds() - cpuBefore:F2} s of CPU");
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Endless_trailers_get_431_and_memory_stays_bounded(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        var before = serve.ResidentBytes();
        using var client = await RawClient.ConnectAsync(serve.Port);
        await client.SendAsync("POST /plaintext HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n");
        var line = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("X-Trailer: 0123456789abcdef\r\n", 2000)));
        var sent = 0L;
        try
        {
            while (sent < 200L * 1024 * 1024)
            {
                sent += await client.Socket.SendAsync(line, SocketFlags.None);
            }
        }
        catch (SocketException)
        {
            // The server answered and closed.
        }

        var (text, _) = await client.ReadAsync();
        Assert.StartsWith("HTTP/1.1 431 ", text, StringComparison.Ordinal);
        Assert.True(sent < 100L * 1024 * 1024, $"the server kept reading trailers: {sent} bytes");
        Assert.True(serve.ResidentBytes() - before < 64L * 1024 * 1024, $"memory grew by {(serve.ResidentBytes() - before) / 1048576} MB");
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task A_client_pipelining_without_reading_stops_being_read(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        var before = serve.ResidentBytes();
        using var client = await RawClient.ConnectAsync(serve.Port);
        client.Socket.ReceiveBufferSize = 64 * 1024;
        var batch = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat(Get, 1000)));
        var sent = 0L;
        using (var twoSeconds = new CancellationTokenSource(TimeSpan.FromSeconds(2)))
        {
            try
            {
                while (true)
                {
                    sent += await client.Socket.SendAsync(batch, SocketFlags.None, twoSeconds.Token);
                }
            }
            catch (OperationCanceledException)
            {
            }
        }

        var grown = serve.ResidentBytes() - before;
        Assert.True(grown < 64L * 1024 * 1024, $"{server} grew by {grown / 1048576} MB while {sent / 1048576} MB of requests went unanswered-for");
        Assert.True(sent < 200L * 1024 * 1024, $"the server read {sent / 1048576} MB of requests whose answers nobody read");
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task A_request_too_slow_to_arrive_gets_408_and_an_idle_connection_is_closed(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server, options: ["requestTimeout=1", "keepAliveTimeout=2"]);
        using var slow = await RawClient.ConnectAsync(serve.Port);
        using var idle = await RawClient.ConnectAsync(serve.Port);
        await idle.SendAsync(Get);
        var (answered, _) = await idle.ReadAsync(t => t.EndsWith("Hello, World!", StringComparison.Ordinal));
        Assert.StartsWith("HTTP/1.1 200 OK", answered, StringComparison.Ordinal);
        await slow.SendAsync("GET /plaintext HTTP/1.1\r\nHost: t\r\n");

        var (timedOut, slowClosed) = await slow.ReadAsync(timeoutMs: 5000);
        Assert.StartsWith("HTTP/1.1 408 Request Timeout", timedOut, StringComparison.Ordinal);
        Assert.True(slowClosed, "the server closes after a 408");

        var (nothing, idleClosed) = await idle.ReadAsync(timeoutMs: 6000);
        Assert.Equal("", nothing);
        Assert.True(idleClosed, "an idle connection is closed after the keep-alive time");
        await AssertServesAsync(serve.Port);
    }

    /// <summary>
    /// By default the connection limit keeps the server below its descriptor limit; with the limit
    /// lifted, libuv and io_uring meet EMFILE themselves.
    /// </summary>
    public static TheoryData<string, string[]> DescriptorCases => new()
    {
        { "sockets", [] },
        { "libuv", [] },
        { "libuv", ["maxConnections=100000"] },
        { "iouring", [] },
        { "iouring", ["maxConnections=100000"] },
    };

    [Theory]
    [MemberData(nameof(DescriptorCases))]
    public async Task Out_of_file_descriptors_the_server_neither_spins_nor_wedges(string server, string[] options)
    {
        await using var serve = await ServeProcess.StartAsync(server, options: options, fileLimit: 256);
        var clients = new List<Socket>();
        try
        {
            for (var i = 0; i < 400; i++)
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                await socket.ConnectAsync(System.Net.IPAddress.Loopback, serve.Port);
                clients.Add(socket);
            }

            await Task.Delay(500);
            var cpuBefore = serve.CpuSeconds();
            await Task.Delay(2000);
            var spent = serve.CpuSeconds() - cpuBefore;
            Assert.True(spent < 0.5, $"{server} used {spent:F2} s of CPU in 2 s with 400 clients over its descriptor limit");
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }

        await Task.Delay(1500);
        await AssertServesAsync(serve.Port);
        Assert.Equal(0, await serve.StopAsync());
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Past_max_connections_a_client_waits_until_another_closes(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server,
            options: server is "libuv" or "iouring" ? ["maxConnections=2", "loops=1"] : ["maxConnections=2"]);
        using var first = await RawClient.ConnectAsync(serve.Port);
        using var second = await RawClient.ConnectAsync(serve.Port);
        await first.SendAsync(Get);
        await second.SendAsync(Get);
        Assert.EndsWith("Hello, World!", (await first.ReadAsync(t => t.EndsWith("Hello, World!", StringComparison.Ordinal))).Text, StringComparison.Ordinal);
        Assert.EndsWith("Hello, World!", (await second.ReadAsync(t => t.EndsWith("Hello, World!", StringComparison.Ordinal))).Text, StringComparison.Ordinal);

        using var third = await RawClient.ConnectAsync(serve.Port);
        await third.SendAsync(Get);
        var (waiting, _) = await third.ReadAsync(timeoutMs: 1000);
        Assert.Equal("", waiting);

        first.Dispose();
        var (served, _) = await third.ReadAsync(t => t.EndsWith("Hello, World!", StringComparison.Ordinal));
        Assert.StartsWith("HTTP/1.1 200 OK", served, StringComparison.Ordinal);
    }

    /// <summary>A clean GET on a new connection gets 200 and the body; returns the response for further checks.</summary>
    internal static async Task<string> AssertServesAsync(int port)
    {
        using var client = await RawClient.ConnectAsync(port);
        await client.SendAsync(Get);
        var (text, _) = await client.ReadAsync(t => t.EndsWith("Hello, World!", StringComparison.Ordinal));
        Assert.StartsWith("HTTP/1.1 200 OK\r\n", text, StringComparison.Ordinal);
        return text;
    }
}

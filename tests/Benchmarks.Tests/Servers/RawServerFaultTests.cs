using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>Malformed and hostile clients against the raw server models, as real processes. None may crash them.</summary>
public sealed class RawServerFaultTests
{
    private const string Get = "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n";

    public static TheoryData<string> RawServers => new() { "sockets", "libuv", "iouring" };

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Malformed_requests_get_400_or_431_and_the_server_keeps_serving(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        foreach (var (request, status) in new[]
        {
            ("GET /plaintext\r\nHost: t\r\n\r\n", "400"),
            ("GET /plaintext HTTP/1.1\nHost: t\n\n", "400"),
            ("BLAH\r\n\r\n", "400"),
            ("GET /plaintext HTTP/1.1\r\nHost: t\r\nX-Big: " + new string('a', 10_000) + "\r\n\r\n", "431"),
        })
        {
            using var client = await RawClient.ConnectAsync(serve.Port);
            await client.SendAsync(request);
            var (text, closed) = await client.ReadAsync();
            Assert.StartsWith($"HTTP/1.1 {status} ", text, StringComparison.Ordinal);
            Assert.Contains("Connection: close", text, StringComparison.Ordinal);
            Assert.True(closed, "the server closes after a 400/431");
        }

        await AssertServesAsync(serve.Port);
        Assert.Equal(0, await serve.StopAsync());
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Head_gets_the_headers_of_the_full_response_and_no_body_so_the_next_pipelined_answer_is_intact(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        using var client = await RawClient.ConnectAsync(serve.Port);
        await client.SendAsync("HEAD /plaintext HTTP/1.1\r\nHost: t\r\n\r\n" + Get);
        var (text, _) = await client.ReadAsync(t => Regex.Count(t, "HTTP/1.1 ") == 2 && t.EndsWith("Hello, World!", StringComparison.Ordinal));
        var responses = text.Split("HTTP/1.1 ", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, responses.Length);
        Assert.Contains("Content-Length: 13\r\n", responses[0], StringComparison.Ordinal);
        Assert.EndsWith("\r\n\r\n", responses[0], StringComparison.Ordinal);
        Assert.EndsWith("\r\n\r\nHello, World!", responses[1], StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Sixteen_pipelined_requests_are_answered_in_order_in_one_write(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        using var client = await RawClient.ConnectAsync(serve.Port);
        var batch = string.Concat(Enumerable.Range(0, 16).Select(i => i == 7 ? "GET /missing HTTP/1.1\r\nHost: t\r\n\r\n" : Get));
        await client.SendAsync(batch);
        var (text, _) = await client.ReadAsync(t => Regex.Count(t, "HTTP/1.1 ") == 16 && t.EndsWith("Hello, World!", StringComparison.Ordinal));
        var statuses = Regex.Matches(text, @"HTTP/1\.1 (\d{3})").Select(m => m.Groups[1].Value).ToList();
        Assert.Equal(16, statuses.Count);
        Assert.Equal("404", statuses[7]);
        Assert.All(statuses.Where((_, i) => i != 7), s => Assert.Equal("200", s));
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Request_bodies_by_length_and_chunked_are_consumed_and_the_connection_goes_on(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        using var client = await RawClient.ConnectAsync(serve.Port);
        await client.SendAsync("POST /plaintext HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello"
            + "POST /plaintext HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n" + Get);
        var (text, _) = await client.ReadAsync(t => Regex.Count(t, "Hello, World!") == 3);
        Assert.Equal(3, Regex.Count(text, "HTTP/1.1 200 OK"));
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task A_client_that_stalls_half_way_does_not_hold_up_others_and_a_short_body_is_never_answered(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        using var staller = await RawClient.ConnectAsync(serve.Port);
        await staller.SendAsync("GET /plaint");
        using var shortBody = await RawClient.ConnectAsync(serve.Port);
        await shortBody.SendAsync("POST /plaintext HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nonly a few bytes");

        for (var i = 0; i < 20; i++)
        {
            await AssertServesAsync(serve.Port);
        }

        var (nothing, _) = await shortBody.ReadAsync(timeoutMs: 500);
        Assert.Equal("", nothing);
        shortBody.Socket.Shutdown(System.Net.Sockets.SocketShutdown.Send);
        var (_, closed) = await shortBody.ReadAsync();
        Assert.True(closed, "the server closes a connection whose client gave up mid-body");
        Assert.False(serve.HasExited);
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Clients_that_disconnect_mid_pipeline_do_not_hurt_the_server(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        for (var i = 0; i < 200; i++)
        {
            var client = await RawClient.ConnectAsync(serve.Port);
            await client.SendAsync(string.Concat(Enumerable.Repeat(Get, 16)) + "GET /plain");
            client.Reset();
        }

        await AssertServesAsync(serve.Port);
        Assert.False(serve.HasExited);
        Assert.Equal(0, await serve.StopAsync());
    }

    [Theory]
    [MemberData(nameof(RawServers))]
    public async Task Ten_thousand_connections_opened_and_dropped_leave_the_server_serving(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        var clients = new List<RawClient>();
        try
        {
            for (var batch = 0; batch < 20; batch++)
            {
                clients.AddRange(await Task.WhenAll(Enumerable.Range(0, 500).Select(_ => RawClient.ConnectAsync(serve.Port))));
            }

            Assert.Equal(10_000, clients.Count);
            await AssertServesAsync(serve.Port);
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Reset();
            }
        }

        await AssertServesAsync(serve.Port);
        Assert.False(serve.HasExited);
    }

    private static async Task AssertServesAsync(int port)
    {
        var text = await RawServerLimitTests.AssertServesAsync(port);
        Assert.Contains("\r\nDate: ", text, StringComparison.Ordinal);
        Assert.Contains("\r\nServer: ", text, StringComparison.Ordinal);
        Assert.Contains("\r\nContent-Type: text/plain\r\n", text, StringComparison.Ordinal);
    }
}

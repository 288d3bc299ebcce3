using System.Buffers.Binary;
using System.Text;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>RFC 6455 behaviour of the ws-echo scenario on each server, with raw frames.</summary>
public sealed class WebSocketConformanceTests
{
    private const int Text = 1, Binary = 2, Continuation = 0, Close = 8, Ping = 9, Pong = 10;

    public static TheoryData<string> Servers => new() { "kestrel", "sockets" };

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task Fragmented_messages_ping_binary_and_the_close_handshake_follow_the_rfc(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server, "ws-echo");
        using (var socket = await RawWebSocket.OpenAsync(serve.Port, "/plain"))
        {
            // A text message in two fragments, with a ping between them (control frames may interleave).
            await socket.SendFrameAsync(fin: false, Text, Encoding.UTF8.GetBytes("Hel"));
            await socket.SendFrameAsync(fin: true, Ping, Encoding.UTF8.GetBytes("p1"));
            await socket.SendFrameAsync(fin: true, Continuation, Encoding.UTF8.GetBytes("lo, ☃"));
            var pong = await socket.ReadFrameAsync();
            Assert.Equal((Pong, true, "p1"), (pong!.Value.Opcode, pong.Value.Fin, Encoding.UTF8.GetString(pong.Value.Payload)));
            var echo = await socket.ReadFrameAsync();
            Assert.Equal((Text, true, "Hello, ☃"), (echo!.Value.Opcode, echo.Value.Fin, Encoding.UTF8.GetString(echo.Value.Payload)));

            await socket.SendFrameAsync(fin: true, Close, [0x03, 0xE8]);
            var close = await socket.ReadFrameAsync();
            Assert.Equal(Close, close!.Value.Opcode);
            Assert.Equal(1000, RawWebSocket.CloseCode(close.Value.Payload));
        }

        using (var socket = await RawWebSocket.OpenAsync(serve.Port, "/binary"))
        {
            var payload = new byte[4];
            BinaryPrimitives.WriteInt32LittleEndian(payload, 41);
            await socket.SendFrameAsync(fin: true, Binary, payload);
            var reply = await socket.ReadFrameAsync();
            Assert.Equal(Binary, reply!.Value.Opcode);
            Assert.Equal(42, BinaryPrimitives.ReadInt32LittleEndian(reply.Value.Payload));
        }
    }

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task Invalid_utf8_closes_with_1007_and_an_unmasked_frame_with_1002(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server, "ws-echo");
        using (var socket = await RawWebSocket.OpenAsync(serve.Port, "/plain"))
        {
            await socket.SendFrameAsync(fin: true, Text, [0xC3, 0x28]);
            var close = await socket.ReadFrameAsync();

            // The server closes with 1007; Kestrel may reset the connection right after writing it, and a reset
            // discards the frame on the client, so "connection closed" also satisfies the rule. No echo may come.
            Assert.True(close is null || (close.Value.Opcode == Close && RawWebSocket.CloseCode(close.Value.Payload) == 1007), $"got opcode {close?.Opcode}");
            Assert.Null(await socket.ReadFrameAsync(timeoutMs: 3000));
        }

        using (var socket = await RawWebSocket.OpenAsync(serve.Port, "/plain"))
        {
            // .NET's WebSocket reads the four mask bytes a client frame must carry before it checks the mask bit,
            // so an unmasked frame is refused once four more bytes have arrived (here: a second unmasked frame).
            await socket.SendFrameAsync(fin: true, Text, Encoding.UTF8.GetBytes("x"), mask: false);
            await socket.SendFrameAsync(fin: true, Text, Encoding.UTF8.GetBytes("yy"), mask: false);
            var close = await socket.ReadFrameAsync();

            // RFC 6455 §5.1: the server MUST close; a 1002 close frame may come first, or be lost to the reset.
            Assert.True(close is null || (close.Value.Opcode == Close && RawWebSocket.CloseCode(close.Value.Payload) == 1002), $"got opcode {close?.Opcode}");
            Assert.Null(await socket.ReadFrameAsync(timeoutMs: 3000));
        }

        using (var socket = await RawWebSocket.OpenAsync(serve.Port, "/json"))
        {
            // Not the {"number":n} shape: the scenario refuses it with 1007.
            await socket.SendFrameAsync(fin: true, Text, Encoding.UTF8.GetBytes("{\"number\":\"x\"}"));
            var close = await socket.ReadFrameAsync();
            Assert.Equal(Close, close!.Value.Opcode);
            Assert.Equal(1007, RawWebSocket.CloseCode(close.Value.Payload));
        }

        Assert.False(serve.HasExited);
    }

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task A_plain_http_request_to_a_websocket_route_gets_426(string server)
    {
        await using var serve = await ServeProcess.StartAsync(server, "ws-echo");
        using var client = await RawClient.ConnectAsync(serve.Port);
        await client.SendAsync("GET /plain HTTP/1.1\r\nHost: t\r\n\r\n");
        var (text, _) = await client.ReadAsync(t => t.Contains("WebSocket.", StringComparison.Ordinal));
        Assert.StartsWith("HTTP/1.1 426", text, StringComparison.Ordinal);
    }
}

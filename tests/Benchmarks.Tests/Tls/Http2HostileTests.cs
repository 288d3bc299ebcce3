using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tls;

/// <summary>
/// Hostile HTTP/2 against the Kestrel server model on h2c, frame by frame from a raw socket: a flood
/// of SETTINGS, the rapid-reset pattern (a stream opened and cancelled at once, thousands of
/// times), and a header block of a megabyte in CONTINUATION frames. Each connection must end
/// (GOAWAY or a close) rather than hang, the server's memory stays bounded, and it still answers
/// a real client (curl) afterwards.
/// </summary>
public sealed class Http2HostileTests
{
    private static readonly byte[] s_preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8.ToArray();

    [Fact]
    public async Task Kestrel_h2c_ends_flooding_connections_keeps_its_memory_and_still_answers()
    {
        Tools.Require("curl");
        await using var serve = await ServeProcess.StartAsync("kestrel", more: ["--protocol", "h2c"]);

        // 20,000 SETTINGS frames, each owed an ACK.
        var settings = new List<byte>(s_preface);
        settings.AddRange(Frame(4, 0, 0, []));
        for (var i = 0; i < 20_000; i++)
        {
            settings.AddRange(Frame(4, 0, 0, []));
        }

        var flood = await ExchangeAsync(serve.Port, [.. settings]);
        Assert.True(flood.Ended || flood.PingAnswered, $"after a SETTINGS flood the connection neither ended nor answered a PING ({flood.Frames} frames back)");

        // Rapid reset: a request and its RST_STREAM (CANCEL), 5,000 times, in one write.
        var reset = new List<byte>(s_preface);
        reset.AddRange(Frame(4, 0, 0, []));
        var request = RequestBlock(serve.Port);
        for (var i = 0; i < 5_000; i++)
        {
            var stream = (2 * i) + 1;
            reset.AddRange(Frame(1, 0x5, stream, request));
            reset.AddRange(Frame(3, 0, stream, [0, 0, 0, 8]));
        }

        var resets = await ExchangeAsync(serve.Port, [.. reset]);
        Assert.True(resets.Ended || resets.PingAnswered,
            $"after a rapid-reset flood the connection neither ended nor answered a PING ({resets.Frames} frames back)");

        // A header block of a megabyte: HEADERS without END_HEADERS, then 64 CONTINUATION frames of 16 KiB.
        var bomb = new List<byte>(s_preface);
        bomb.AddRange(Frame(4, 0, 0, []));
        bomb.AddRange(Frame(1, 0x1, 1, request));
        var filler = new byte[16 * 1024];
        filler.AsSpan().Fill((byte)'a');
        for (var i = 0; i < 64; i++)
        {
            bomb.AddRange(Frame(9, 0, 1, filler));
        }

        var headers = await ExchangeAsync(serve.Port, [.. bomb]);
        Assert.True(headers.Ended || headers.PingAnswered,
            $"after a megabyte of header block the connection neither ended nor answered a PING ({headers.Frames} frames back)");
        Assert.False(headers.Answered200, "a request with a megabyte of headers was answered 200");

        Assert.False(serve.HasExited, "the server died");
        Assert.True(serve.ResidentBytes() < 400L * 1024 * 1024, $"the server holds {serve.ResidentBytes() / 1024 / 1024} MB");
        var (exit, output) = await ExternalTool.RunAsync("curl", "-s", "--http2-prior-knowledge", "-w", " %{http_version}",
            $"http://127.0.0.1:{serve.Port}/plaintext");
        Assert.True(exit == 0 && output == "Hello, World! 2", output);
    }

    /// <summary>GET /plaintext in HPACK without the dynamic table: :method GET, :scheme http (static), :path and :authority as literals.</summary>
    private static byte[] RequestBlock(int port)
    {
        var authority = System.Text.Encoding.ASCII.GetBytes($"127.0.0.1:{port}");
        return [0x82, 0x86, 0x04, 10, .. "/plaintext"u8, 0x01, (byte)authority.Length, .. authority];
    }

    private static byte[] Frame(byte type, byte flags, int stream, ReadOnlySpan<byte> payload) => ScriptedHttp2Server.Frame(type, flags, stream, payload);

    /// <summary>
    /// Writes the bytes (as far as the server takes them) and a PING, and reads frames until the
    /// server ends the connection, acknowledges the PING (it is still serving the connection, in
    /// order), or 15 s pass; says too whether any stream was answered 200.
    /// </summary>
    private static async Task<(bool Ended, bool PingAnswered, bool Answered200, int Frames)> ExchangeAsync(int port, byte[] bytes)
    {
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, port);
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(15));
        var ping = Frame(6, 0, 0, "hostile!"u8);
        var reading = Task.Run(async () =>
        {
            var buffer = new byte[256 * 1024];
            var held = 0;
            var frames = 0;
            var answered = false;
            try
            {
                while (true)
                {
                    if (held == buffer.Length)
                    {
                        Array.Resize(ref buffer, buffer.Length * 2);
                    }

                    var read = await socket.ReceiveAsync(buffer.AsMemory(held), SocketFlags.None, deadline.Token);
                    if (read == 0)
                    {
                        return (true, false, answered, frames);
                    }

                    held += read;
                    var at = 0;
                    while (held - at >= 9)
                    {
                        var length = (buffer[at] << 16) | (buffer[at + 1] << 8) | buffer[at + 2];
                        if (held - at < 9 + length)
                        {
                            break;
                        }

                        frames++;
                        var (type, flags) = (buffer[at + 3], buffer[at + 4]);
                        answered |= type == 1 && length > 0 && buffer[at + 9 + ((flags & 0x8) != 0 ? 1 : 0) + ((flags & 0x20) != 0 ? 5 : 0)] == 0x88;
                        if (type == 6 && (flags & 1) != 0 && buffer.AsSpan(at + 9, 8).SequenceEqual("hostile!"u8))
                        {
                            return (false, true, answered, frames);
                        }

                        at += 9 + length;
                    }

                    Buffer.BlockCopy(buffer, at, buffer, 0, held - at);
                    held -= at;
                }
            }
            catch (SocketException)
            {
                return (true, false, answered, frames);
            }
            catch (OperationCanceledException)
            {
                return (false, false, answered, frames);
            }
        });
        try
        {
            await socket.SendAsync(bytes, SocketFlags.None, deadline.Token);
            await socket.SendAsync(ping, SocketFlags.None, deadline.Token);
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException)
        {
            // The server closed before it read everything: an end too.
        }

        return await reading;
    }
}

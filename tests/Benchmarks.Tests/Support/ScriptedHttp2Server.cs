using System.Buffers.Binary;
using System.Net.Sockets;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A real TCP server on loopback speaking just enough HTTP/2 (h2c, prior knowledge) to misbehave on
/// purpose: each connection reads the client's preface and then runs the script, which reads the
/// client's frames and writes what it likes. For the faults a real server will not produce on
/// demand: resets, GOAWAY, oversized frames, endless header blocks, floods, a close mid-frame.
/// </summary>
internal sealed class ScriptedHttp2Server : IAsyncDisposable
{
    private readonly Func<Peer, CancellationToken, Task> _script;
    private readonly LoopbackServer _server;

    /// <param name="script">What each connection does after the client's preface.</param>
    /// <param name="receiveBuffer">
    /// The accepted sockets' receive buffer, set on the listener so the window the server offers
    /// is small from the handshake on (0: the system's default).
    /// </param>
    public ScriptedHttp2Server(Func<Peer, CancellationToken, Task> script, int receiveBuffer = 0)
    {
        _script = script;
        _server = new LoopbackServer(ServeAsync, receiveBuffer: receiveBuffer);
    }

    public Uri Url => _server.Url("/plaintext");

    /// <summary>Connections accepted so far.</summary>
    public int Connections => _server.Accepted;

    /// <summary>A frame: 9-byte header and payload.</summary>
    public static byte[] Frame(byte type, byte flags, int stream, ReadOnlySpan<byte> payload)
    {
        var frame = new byte[9 + payload.Length];
        frame[0] = (byte)(payload.Length >> 16);
        frame[1] = (byte)(payload.Length >> 8);
        frame[2] = (byte)payload.Length;
        frame[3] = type;
        frame[4] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(5), stream);
        payload.CopyTo(frame.AsSpan(9));
        return frame;
    }

    /// <summary>HEADERS with :status 200 (static index 8) and END_HEADERS, then DATA with the body and END_STREAM.</summary>
    public static byte[] Answer(int stream, string body) =>
        [.. Frame(1, 0x4, stream, [0x88]), .. Frame(0, 0x1, stream, System.Text.Encoding.ASCII.GetBytes(body))];

    public ValueTask DisposeAsync() => _server.DisposeAsync();

    private async Task ServeAsync(Socket socket, int number, CancellationToken stop)
    {
        var peer = new Peer(socket);
        var preface = new byte[24];
        await peer.ReadExactlyAsync(preface, stop);
        await _script(peer, stop);
    }

    /// <summary>One client connection as the script sees it.</summary>
    internal sealed class Peer(Socket socket)
    {
        public Socket Socket => socket;

        /// <summary>The client's next frame (type, flags, stream, payload).</summary>
        public async Task<(byte Type, byte Flags, int Stream, byte[] Payload)> ReadFrameAsync(CancellationToken cancellationToken)
        {
            var header = new byte[9];
            await ReadExactlyAsync(header, cancellationToken);
            var payload = new byte[(header[0] << 16) | (header[1] << 8) | header[2]];
            await ReadExactlyAsync(payload, cancellationToken);
            return (header[3], header[4], BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(5)) & int.MaxValue, payload);
        }

        /// <summary>Reads the client's frames until its next HEADERS (a request); its stream.</summary>
        public async Task<int> NextRequestAsync(CancellationToken cancellationToken)
        {
            while (true)
            {
                var frame = await ReadFrameAsync(cancellationToken);
                if (frame.Type == 1)
                {
                    return frame.Stream;
                }
            }
        }

        public async Task WriteAsync(byte[] bytes, CancellationToken cancellationToken) => await socket.SendAsync(bytes, SocketFlags.None, cancellationToken);

        public async Task ReadExactlyAsync(byte[] into, CancellationToken cancellationToken)
        {
            var at = 0;
            while (at < into.Length)
            {
                var read = await socket.ReceiveAsync(into.AsMemory(at), SocketFlags.None, cancellationToken);
                if (read == 0)
                {
                    throw new EndOfStreamException();
                }

                at += read;
            }
        }
    }
}

using System.Net.Sockets;
using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A real TCP server on loopback with scripted HTTP behaviour, for the faults a real server
/// will not produce on demand: every response a 500, a close in the middle of a pipeline, a stall.
/// </summary>
internal sealed class ScriptedHttpServer : IAsyncDisposable
{
    private readonly Func<int, byte[]?> _respond;
    private readonly LoopbackServer _server;

    /// <param name="respond">Given the 1-based number of a request on its connection, the bytes to answer, or null to close the connection.</param>
    public ScriptedHttpServer(Func<int, byte[]?> respond)
    {
        _respond = respond;
        _server = new LoopbackServer(ServeAsync);
    }

    public Uri Url => _server.Url("/test");

    public static byte[] Response(int status, string body, bool chunked = false) => Encoding.ASCII.GetBytes(chunked
        ? $"HTTP/1.1 {status} X\r\nTransfer-Encoding: chunked\r\n\r\n{body.Length / 2:X}\r\n{body[..(body.Length / 2)]}\r\n" +
            $"{body.Length - (body.Length / 2):X}\r\n{body[(body.Length / 2)..]}\r\n0\r\n\r\n"
        : $"HTTP/1.1 {status} X\r\nContent-Length: {body.Length}\r\n\r\n{body}");

    public ValueTask DisposeAsync() => _server.DisposeAsync();

    private async Task ServeAsync(Socket socket, int number, CancellationToken stop)
    {
        var buffer = new byte[16 * 1024];
        var matched = 0;
        var requests = 0;
        while (!stop.IsCancellationRequested)
        {
            var read = await socket.ReceiveAsync(buffer, SocketFlags.None, stop);
            if (read == 0)
            {
                return;
            }

            var output = new List<byte>();
            for (var i = 0; i < read; i++)
            {
                matched = buffer[i] == "\r\n\r\n"u8[matched] ? matched + 1 : buffer[i] == (byte)'\r' ? 1 : 0;
                if (matched < 4)
                {
                    continue;
                }

                matched = 0;
                var response = _respond(++requests);
                if (response is null)
                {
                    await socket.SendAsync(output.ToArray(), SocketFlags.None);
                    return;
                }

                output.AddRange(response);
            }

            if (output.Count > 0)
            {
                await socket.SendAsync(output.ToArray(), SocketFlags.None);
            }
        }
    }
}

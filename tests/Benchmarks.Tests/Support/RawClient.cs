using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>A raw TCP client for sending exact bytes and reading whatever comes back.</summary>
internal sealed class RawClient : IDisposable
{
    private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };

    public static async Task<RawClient> ConnectAsync(int port)
    {
        var client = new RawClient();
        await client._socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port));
        return client;
    }

    public Socket Socket => _socket;

    public Task SendAsync(string text) => _socket.SendAsync(Encoding.ASCII.GetBytes(text), SocketFlags.None);

    /// <summary>Reads until the server closes or <paramref name="until"/> holds for what was read, within a timeout.</summary>
    public async Task<(string Text, bool Closed)> ReadAsync(Func<string, bool>? until = null, int timeoutMs = 5000)
    {
        var received = new StringBuilder();
        var buffer = new byte[64 * 1024];
        using var timeout = new CancellationTokenSource(timeoutMs);
        try
        {
            while (true)
            {
                var read = await _socket.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
                if (read == 0)
                {
                    return (received.ToString(), true);
                }

                received.Append(Encoding.ASCII.GetString(buffer, 0, read));
                if (until?.Invoke(received.ToString()) == true)
                {
                    return (received.ToString(), false);
                }
            }
        }
        catch (OperationCanceledException)
        {
            return (received.ToString(), false);
        }
        catch (SocketException)
        {
            return (received.ToString(), true);
        }
    }

    public void Reset()
    {
        _socket.LingerState = new LingerOption(true, 0);
        _socket.Dispose();
    }

    public void Dispose() => _socket.Dispose();
}

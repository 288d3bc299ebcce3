using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Tests.Support;

/// <summary>
/// What every fake server of the tests shares: a listener on a free loopback port, an accept loop
/// that hands each connection (with its 1-based number) to the fake's own code, and a dispose that
/// stops accepting, cancels the connections and waits for them to end. The socket is the
/// connection's to use and is disposed when its code returns.
/// </summary>
internal sealed class LoopbackServer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly Func<Socket, int, CancellationToken, Task> _serve;
    private readonly List<Task> _serving = [];
    private readonly Task _accepting;
    private int _accepted;

    /// <param name="serve">One connection: its socket, its number and the server's stop.</param>
    /// <param name="backlog">The listen queue (0: the system's default).</param>
    /// <param name="receiveBuffer">The accepted sockets' receive buffer, set on the listener so it
    /// holds from the handshake on (0: the system's default).</param>
    public LoopbackServer(Func<Socket, int, CancellationToken, Task> serve, int backlog = 0, int receiveBuffer = 0)
    {
        _serve = serve;
        if (receiveBuffer > 0)
        {
            _listener.Server.ReceiveBufferSize = receiveBuffer;
        }

        if (backlog > 0)
        {
            _listener.Start(backlog);
        }
        else
        {
            _listener.Start();
        }

        _accepting = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>An http:// address of the server with <paramref name="path"/>.</summary>
    public Uri Url(string path) => new($"http://127.0.0.1:{Port}{path}");

    /// <summary>Connections accepted so far.</summary>
    public int Accepted => Volatile.Read(ref _accepted);

    /// <summary>Whether a connection's failure is how it ends when the client goes or the server stops.</summary>
    public static bool Ended(Exception exception) =>
        exception is OperationCanceledException or SocketException or ObjectDisposedException or EndOfStreamException;

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        Task[] serving;
        lock (_serving)
        {
            serving = [.. _serving];
        }

        await Task.WhenAll(serving);
        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (true)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception ex) when (Ended(ex) || (ex is InvalidOperationException && _stop.IsCancellationRequested))
            {
                // Stopped: a listener stopped between two accepts refuses the next with "Not listening".
                return;
            }

            var serving = ServeAsync(socket, Interlocked.Increment(ref _accepted));
            lock (_serving)
            {
                _serving.Add(serving);
            }
        }
    }

    private async Task ServeAsync(Socket socket, int number)
    {
        using (socket)
        {
            try
            {
                await _serve(socket, number, _stop.Token);
            }
            catch (Exception ex) when (Ended(ex))
            {
            }
        }
    }
}

using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.Sockets;

/// <summary>Accept loops over the listeners; every connection runs its own request loop.</summary>
internal sealed class SocketsRunningServer : IRunningServer
{
    private readonly List<Socket> _listeners;
    private readonly Func<HttpRequestProcessor> _processorFactory;
    private readonly ConcurrentDictionary<SocketConnection, Task> _connections = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task[] _acceptLoops;

    public SocketsRunningServer(List<Socket> listeners, Func<HttpRequestProcessor> processorFactory)
    {
        _listeners = listeners;
        _processorFactory = processorFactory;
        Addresses = [.. listeners.Select(l => $"http://{(IPEndPoint)l.LocalEndPoint!}")];
        _acceptLoops = [.. listeners.Select(l => Task.Run(() => AcceptAsync(l), CancellationToken.None))];
    }

    public IReadOnlyList<string> Addresses { get; }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync();
        foreach (var listener in _listeners)
        {
            listener.Dispose();
        }

        await Task.WhenAll(_acceptLoops);

        // Connections finish the requests they have, then close; the rest are aborted when time runs out.
        foreach (var connection in _connections.Keys)
        {
            connection.RequestStop();
        }

        try
        {
            await Task.WhenAll(_connections.Values).WaitAsync(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            foreach (var connection in _connections.Keys)
            {
                connection.Abort();
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_stopping.IsCancellationRequested)
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await StopAsync(timeout.Token);
        }

        _stopping.Dispose();
    }

    private async Task AcceptAsync(Socket listener)
    {
        while (!_stopping.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await listener.AcceptAsync(_stopping.Token);
            }
            catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException)
            {
                return;
            }
            catch (SocketException)
            {
                // A connection reset before it was accepted: keep accepting.
                continue;
            }

            socket.NoDelay = true;
            var connection = new SocketConnection(socket, _processorFactory());
            _connections[connection] = RunAsync(connection);
        }
    }

    private async Task RunAsync(SocketConnection connection)
    {
        await Task.Yield();
        try
        {
            await connection.RunAsync();
        }
        finally
        {
            _connections.TryRemove(connection, out _);
        }
    }
}

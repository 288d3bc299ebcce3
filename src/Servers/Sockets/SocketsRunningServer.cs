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
    private readonly RawServerLimits _limits;
    private readonly ConcurrentDictionary<SocketConnection, Task> _connections = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task[] _acceptLoops;
    private readonly Task _heartbeat;
    private readonly SemaphoreSlim _slots;
    private readonly System.Net.Security.SslServerAuthenticationOptions? _tls;

    /// <param name="tls">The TLS every connection is served over; null for cleartext.</param>
    public SocketsRunningServer(List<Socket> listeners, Func<HttpRequestProcessor> processorFactory, RawServerLimits limits,
        System.Net.Security.SslServerAuthenticationOptions? tls = null)
    {
        _tls = tls;
        _listeners = listeners;
        _processorFactory = processorFactory;
        _limits = limits;
        _slots = new SemaphoreSlim(limits.MaxConnections);
        Addresses = [.. listeners.Select(l => $"{(tls is null ? "http" : "https")}://{(IPEndPoint)l.LocalEndPoint!}")];
        _acceptLoops = [.. listeners.Select(l => Task.Run(() => AcceptAsync(l), CancellationToken.None))];
        _heartbeat = Task.Run(HeartbeatAsync, CancellationToken.None);
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
        await _heartbeat;

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
                // At the connection limit, further clients wait in the backlog until one closes.
                await _slots.WaitAsync(_stopping.Token);
                socket = await listener.AcceptAsync(_stopping.Token);
            }
            catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException)
            {
                return;
            }
            catch (SocketException ex) when (ex.SocketErrorCode is SocketError.TooManyOpenSockets or SocketError.NoBufferSpaceAvailable)
            {
                _slots.Release();
                // Out of file descriptors: the connection waits in the backlog until some are freed.
                // Retrying at once would spin; back off and try again.
                if (!await BackOffAsync())
                {
                    return;
                }

                continue;
            }
            catch (SocketException)
            {
                // A connection reset before it was accepted: keep accepting.
                _slots.Release();
                continue;
            }

            socket.NoDelay = true;
            var connection = new SocketConnection(socket, _processorFactory(), _limits, _tls);
            _connections[connection] = RunAsync(connection);
        }
    }

    private async Task<bool> BackOffAsync()
    {
        try
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100), _stopping.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>Once a second: time out connections whose request is too slow to arrive or that sat idle too long.</summary>
    private async Task HeartbeatAsync()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        try
        {
            while (await timer.WaitForNextTickAsync(_stopping.Token))
            {
                var now = Environment.TickCount64;
                foreach (var connection in _connections.Keys)
                {
                    var timeout = connection.Clock.Check(_limits, now);
                    if (timeout != ConnectionTimeout.None)
                    {
                        connection.TimeOut(timeout);
                    }
                }
            }
        }
        catch (OperationCanceledException)
        {
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
            connection.Dispose();
            _slots.Release();
        }
    }
}

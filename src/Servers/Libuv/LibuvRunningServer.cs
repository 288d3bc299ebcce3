using System.Net.Sockets;

namespace Benchmarks.Servers.Libuv;

internal sealed class LibuvRunningServer : IRunningServer
{
    private readonly IReadOnlyList<LibuvLoop> _loops;
    private readonly IReadOnlyList<Socket> _sockets;
    private bool _stopped;

    public LibuvRunningServer(IReadOnlyList<LibuvLoop> loops, IReadOnlyList<Socket> sockets, IReadOnlyList<string> addresses)
    {
        _loops = loops;
        _sockets = sockets;
        Addresses = addresses;
    }

    public IReadOnlyList<string> Addresses { get; }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        foreach (var loop in _loops)
        {
            loop.RequestStop();
        }

        try
        {
            await Task.WhenAll(_loops.Select(l => l.Stopped)).WaitAsync(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            // Loops still draining writes: the process is about to exit anyway.
        }

        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }
    }

    public async ValueTask DisposeAsync()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        await StopAsync(timeout.Token);
    }
}

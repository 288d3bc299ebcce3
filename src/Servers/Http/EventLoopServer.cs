using System.Net;
using System.Net.Sockets;

namespace Benchmarks.Servers.Http;

/// <summary>
/// A running loop-per-core server (libuv, io_uring): for every URL, one listening socket per loop
/// on the same port (SO_REUSEPORT spreads connections over them, on Linux), each given to a loop
/// of its own; stopped by asking each loop to stop and waiting for them.
/// </summary>
public sealed class EventLoopServer : IRunningServer
{
    private readonly IReadOnlyList<IEventLoop> _loops;
    private readonly IReadOnlyList<Socket> _sockets;
    private bool _stopped;

    private EventLoopServer(IReadOnlyList<IEventLoop> loops, IReadOnlyList<Socket> sockets, IReadOnlyList<string> addresses)
    {
        _loops = loops;
        _sockets = sockets;
        Addresses = addresses;
    }

    public IReadOnlyList<string> Addresses { get; }

    /// <summary>
    /// Binds <paramref name="loopsPerUrl"/> listeners for each of <paramref name="urls"/> (port 0:
    /// the first gets a port from the system and the others share it) and starts a loop made by
    /// <paramref name="createLoop"/> on each; on failure, what started is stopped again.
    /// </summary>
    public static async Task<EventLoopServer> StartAsync(IReadOnlyList<Uri> urls, int loopsPerUrl, Func<Socket, IEventLoop> createLoop,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(urls);
        ArgumentNullException.ThrowIfNull(createLoop);
        var sockets = new List<Socket>();
        var started = new List<IEventLoop>();
        var addresses = new List<string>();
        try
        {
            foreach (var url in urls)
            {
                var endPoint = EndPointOf(url);
                EnsureFree(endPoint, url);
                for (var i = 0; i < loopsPerUrl; i++)
                {
                    var socket = Listen(endPoint, reusePort: loopsPerUrl > 1);
                    sockets.Add(socket);
                    endPoint = (IPEndPoint)socket.LocalEndPoint!;
                    var loop = createLoop(socket);
                    await loop.StartAsync(started.Count).WaitAsync(cancellationToken);
                    started.Add(loop);
                }

                addresses.Add($"{url.Scheme}://{endPoint}");
            }
        }
        catch
        {
            await new EventLoopServer(started, sockets, []).DisposeAsync();
            throw;
        }

        return new EventLoopServer(started, sockets, addresses);
    }

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

    private static IPEndPoint EndPointOf(Uri url)
    {
        var address = url.Host is "localhost" ? IPAddress.Loopback : url.Host is "*" or "+" or "0.0.0.0" ? IPAddress.Any : IPAddress.Parse(url.Host);
        return new IPEndPoint(address, url.Port);
    }

    /// <summary>SO_REUSEPORT would let us share a port with another listener of this user: check it is free first.</summary>
    private static void EnsureFree(IPEndPoint endPoint, Uri url)
    {
        using var probe = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            probe.Bind(endPoint);
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.AddressAlreadyInUse)
        {
            throw new IOException($"Failed to bind to address {url.GetLeftPart(UriPartial.Authority)}: address already in use.", ex);
        }
    }

    private static Socket Listen(IPEndPoint endPoint, bool reusePort)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            if (reusePort && OperatingSystem.IsLinux())
            {
                const int SolSocket = 1, SoReusePort = 15;
                socket.SetRawSocketOption(SolSocket, SoReusePort, BitConverter.GetBytes(1));
            }

            socket.Bind(endPoint);
            socket.Listen(4096);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}

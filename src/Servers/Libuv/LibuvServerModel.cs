using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.Libuv;

/// <summary>HTTP/1.1 on libuv through P/Invoke: one event loop per core, the shared parser and scenario contract.</summary>
public sealed class LibuvServerModel : IServerModel
{
    /// <summary>HTTP and raw TCP; it answers no WebSocket upgrade.</summary>
    public string? CannotServe(Scenarios.IScenario scenario) =>
        scenario is Scenarios.IWebSocketScenario ? $"libuv answers no WebSocket upgrade, and '{scenario.Name}' needs one" : null;

    /// <summary>Cleartext HTTP/1.1 only: its loops hand raw buffers to the parser, and TLS there would be a record layer of the tool's own.</summary>
    public string? CannotCarry(HttpWire wire)
    {
        ArgumentNullException.ThrowIfNull(wire);
        return wire == HttpWire.Cleartext ? null : $"libuv serves cleartext HTTP/1.1 only: its event loops hand raw socket buffers to the parser, with no TLS record layer between (use kestrel or sockets for {wire.Name})";
    }

    public string Name => "libuv";

    public string Description => "libuv event loops (one per core, SO_REUSEPORT listeners) through P/Invoke, with the shared HTTP/1.1 parser.";

    public ServerAvailability Availability => LibuvNative.LoadError is { } error
        ? ServerAvailability.Unavailable(error)
        : ServerAvailability.Available;

    public void ValidateOptions(IReadOnlyDictionary<string, string> options)
    {
        ArgumentNullException.ThrowIfNull(options);
        foreach (var (name, value) in options)
        {
            if (RawServerLimits.IsName(name))
            {
                continue;
            }

            if (!name.Equals("loops", StringComparison.OrdinalIgnoreCase))
            {
                throw new ArgumentException($"Unknown libuv option '{name}'. Known: loops, {string.Join(", ", RawServerLimits.Names)}.");
            }

            if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var loops) || loops < 1)
            {
                throw new ArgumentException($"libuv option 'loops' must be a positive number (got '{value}').");
            }
        }

        _ = RawServerLimits.Parse(options);
    }

    public async Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        ValidateOptions(context.Options);
        if (LibuvNative.LoadError is { } error)
        {
            throw new PlatformNotSupportedException(error);
        }

        // Without SO_REUSEPORT (Windows) the loops cannot share a port: one loop then.
        var loops = context.Options.TryGetValue("loops", out var text) ? int.Parse(text, CultureInfo.InvariantCulture) : Environment.ProcessorCount;
        if (!OperatingSystem.IsLinux())
        {
            loops = 1;
        }

        var routes = new RouteTable(context.Scenario.Routes);
        var limits = RawServerLimits.Parse(context.Options);
        limits = limits with { MaxConnections = Math.Max(1, limits.MaxConnections / Math.Max(1, loops * context.Urls.Count)) };
        var sockets = new List<Socket>();
        var started = new List<LibuvLoop>();
        var addresses = new List<string>();
        try
        {
            foreach (var url in context.Urls)
            {
                var endPoint = EndPointOf(url);
                EnsureFree(endPoint, url);
                for (var i = 0; i < loops; i++)
                {
                    var socket = Listen(endPoint, reusePort: loops > 1);
                    sockets.Add(socket);

                    // Port 0: the first loop's socket gets a port from the system, and the other loops share that one.
                    endPoint = (IPEndPoint)socket.LocalEndPoint!;
                    var loop = new LibuvLoop(socket, () => new HttpRequestProcessor(context.Scenario, routes, "Benchmarks-Libuv"), limits);
                    await loop.StartAsync(started.Count).WaitAsync(cancellationToken);
                    started.Add(loop);
                }

                addresses.Add($"{url.Scheme}://{endPoint}");
            }
        }
        catch
        {
            await new LibuvRunningServer(started, sockets, []).DisposeAsync();
            throw;
        }

        return new LibuvRunningServer(started, sockets, addresses);
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

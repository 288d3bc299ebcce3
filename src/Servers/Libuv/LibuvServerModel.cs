using System.Globalization;
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
        return wire == HttpWire.Cleartext ? null : $"libuv serves cleartext HTTP/1.1 only: its event loops hand raw socket buffers to the parser, " +
            $"with no TLS record layer between (use kestrel or sockets for {wire.Name})";
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
        var limits = RawServerLimits.Parse(context.Options).PerLoop(loops, context.Urls.Count);
        return await EventLoopServer.StartAsync(
            context.Urls,
            loops,
            socket => new LibuvLoop(socket, () => new HttpRequestProcessor(context.Scenario, routes, "Benchmarks-Libuv"), limits),
            cancellationToken);
    }
}

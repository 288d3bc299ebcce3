using System.Globalization;
using Benchmarks.IoUring;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.IoUring;

/// <summary>
/// HTTP/1.1 on io_uring: one ring and one loop per core, multishot accept and receive into a
/// provided-buffer ring, each connection's responses sent once per loop turn, with the shared
/// parser and scenario contract. Linux only; where io_uring is forbidden or too old, unavailable
/// with the reason.
/// </summary>
public sealed class IoUringServerModel : IServerModel
{
    private const string LoopsName = "loops";
    private const string SqPollName = "sqpoll";

    public string Name => "iouring";

    public string Description =>
        "io_uring rings (one loop per core, SO_REUSEPORT listeners; multishot accept and receive, provided buffers, batched sends), " +
        "with the shared HTTP/1.1 parser.";

    public ServerAvailability Availability => !OperatingSystem.IsLinux()
        ? ServerAvailability.Unavailable("io_uring is Linux's: there is no io_uring on this system")
        : IoUringProbe.Problem is { } problem ? ServerAvailability.Unavailable(problem) : ServerAvailability.Available;

    /// <summary>HTTP and raw TCP; it answers no WebSocket upgrade.</summary>
    public string? CannotServe(Scenarios.IScenario scenario) =>
        scenario is Scenarios.IWebSocketScenario ? $"iouring answers no WebSocket upgrade, and '{scenario.Name}' needs one" : null;

    /// <summary>Cleartext HTTP/1.1 only: its rings hand raw receive buffers to the parser.</summary>
    public string? CannotCarry(HttpWire wire)
    {
        ArgumentNullException.ThrowIfNull(wire);
        return wire == HttpWire.Cleartext ? null : $"iouring serves cleartext HTTP/1.1 only: its rings hand raw receive buffers to the parser, " +
            $"with no TLS record layer between (use kestrel or sockets for {wire.Name})";
    }

    public void ValidateOptions(IReadOnlyDictionary<string, string> options)
    {
        ArgumentNullException.ThrowIfNull(options);
        foreach (var (name, value) in options)
        {
            if (RawServerLimits.IsName(name))
            {
                continue;
            }

            if (name.Equals(LoopsName, StringComparison.OrdinalIgnoreCase))
            {
                if (!int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var loops) || loops < 1 || loops > 1024)
                {
                    throw new ArgumentException($"iouring option 'loops' must be a number from 1 to 1024 (got '{value}').");
                }
            }
            else if (name.Equals(SqPollName, StringComparison.OrdinalIgnoreCase))
            {
                if (!bool.TryParse(value, out _))
                {
                    throw new ArgumentException($"iouring option 'sqpoll' must be true or false (got '{value}').");
                }
            }
            else
            {
                throw new ArgumentException($"Unknown iouring option '{name}'. Known: {LoopsName}, {SqPollName}, {string.Join(", ", RawServerLimits.Names)}.");
            }
        }

        _ = RawServerLimits.Parse(options);
    }

    public async Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(context);
        ValidateOptions(context.Options);
        if (!OperatingSystem.IsLinux())
        {
            throw new PlatformNotSupportedException("io_uring is Linux's: there is no io_uring on this system");
        }

        if (IoUringProbe.Problem is { } problem)
        {
            throw new PlatformNotSupportedException(problem);
        }

        return await StartLoopsAsync(context, cancellationToken);
    }

    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    private static async Task<IRunningServer> StartLoopsAsync(ServerStartContext context, CancellationToken cancellationToken)
    {
        var loops = Option(context.Options, LoopsName) is { } text ? int.Parse(text, CultureInfo.InvariantCulture) : Environment.ProcessorCount;
        var sqPoll = Option(context.Options, SqPollName) is { } poll && bool.Parse(poll);
        var routes = new RouteTable(context.Scenario.Routes);
        var limits = RawServerLimits.Parse(context.Options).PerLoop(loops, context.Urls.Count);
        return await EventLoopServer.StartAsync(
            context.Urls,
            loops,
            socket => new IoUringLoop(socket, () => new HttpRequestProcessor(context.Scenario, routes, "Benchmarks-IoUring"), limits, sqPoll),
            cancellationToken);
    }

    private static string? Option(IReadOnlyDictionary<string, string> options, string name) =>
        options.FirstOrDefault(o => o.Key.Equals(name, StringComparison.OrdinalIgnoreCase)).Value;
}

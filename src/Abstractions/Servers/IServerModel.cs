using Benchmarks.Scenarios;

namespace Benchmarks.Servers;

/// <summary>How bytes get in and out: Kestrel, raw sockets, libuv, HttpSys.</summary>
public interface IServerModel
{
    /// <summary>The name users type: <c>--server kestrel</c>.</summary>
    string Name { get; }

    /// <summary>One line for <c>benchmarks servers</c>.</summary>
    string Description { get; }

    /// <summary>Whether this server model can run on this machine, and if not, why.</summary>
    ServerAvailability Availability { get; }

    /// <summary>
    /// Throws <see cref="ArgumentException"/> with a one-line cause when an option
    /// (<c>--server-option name=value</c>) is unknown or its value invalid; called before anything starts.
    /// </summary>
    void ValidateOptions(IReadOnlyDictionary<string, string> options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Count > 0)
        {
            throw new ArgumentException($"Server '{Name}' takes no options (got {string.Join(", ", options.Keys)}).");
        }
    }

    /// <summary>
    /// Why this server cannot serve <paramref name="scenario"/>, in one line, or null when it can:
    /// asked before anything starts. By default a server serves HTTP scenarios (WebSocket upgrades
    /// included) and not raw TCP ones; a scenario with endpoints of its own is served only by a
    /// server that <see cref="HostsEndpoints"/>, whatever this says.
    /// </summary>
    string? CannotServe(IScenario scenario) =>
        scenario is ITcpScenario ? $"{Name} serves HTTP only, and '{scenario.Name}' is raw TCP (tcp://)" : null;

    /// <summary>Whether this server hosts ASP.NET Core services and endpoints, and so serves an <see cref="IEndpointScenario"/> (gRPC).</summary>
    bool HostsEndpoints => false;

    /// <summary>
    /// Why this server cannot carry HTTP as <paramref name="wire"/> says (TLS, HTTP/2), in one
    /// line, or null when it can: asked before anything starts. By default a server speaks
    /// cleartext HTTP/1.1 only.
    /// </summary>
    string? CannotCarry(HttpWire wire)
    {
        ArgumentNullException.ThrowIfNull(wire);
        return wire == HttpWire.Cleartext ? null : $"{Name} serves cleartext HTTP/1.1 only, not {wire.Name}";
    }

    /// <summary>
    /// Starts listening and returns once the listeners are bound. Throws when a listener cannot
    /// be bound (port in use).
    /// </summary>
    Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken);
}

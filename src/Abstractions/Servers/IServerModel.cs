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
    /// Starts listening and returns once the listeners are bound. Throws when a listener cannot
    /// be bound (port in use).
    /// </summary>
    Task<IRunningServer> StartAsync(ServerStartContext context, CancellationToken cancellationToken);
}

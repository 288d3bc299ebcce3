using System.Globalization;

namespace Benchmarks.Load.Core;

/// <summary>
/// The settings every built-in load takes the same way, declared and checked once: the target,
/// the connections, the window's phases, the timeout and the open model's rate. A protocol's
/// options derive from it, set their own defaults for the connections and the timeout, and add
/// what only they take.
/// </summary>
public abstract record LoadSettings
{
    /// <param name="connections">The protocol's default <see cref="Connections"/>.</param>
    /// <param name="timeout">The protocol's default <see cref="Timeout"/>.</param>
    protected LoadSettings(int connections, TimeSpan timeout)
    {
        Connections = connections;
        Timeout = timeout;
    }

    public required Uri Url { get; init; }

    /// <summary>Connections held open (or concurrent clients, where each request or message opens its own).</summary>
    public int Connections { get; init; }

    public TimeSpan Duration { get; init; } = DefaultLoad.Duration;

    public TimeSpan Warmup { get; init; } = DefaultLoad.Warmup;

    /// <summary>A connect or an answer that takes longer is a timeout error.</summary>
    public TimeSpan Timeout { get; init; }

    /// <summary>
    /// Open model: requests or messages per second over all connections, each due at its slot in a
    /// fixed timeline and timed from that slot as well as from its send; null: the closed loop
    /// (each connection sends when its last answer came).
    /// </summary>
    public double? Rate { get; init; }

    /// <summary>Throws <see cref="ArgumentException"/> with a one-line cause for a shared setting that cannot work.</summary>
    /// <param name="items">What the rate counts, for its message: <c>requests</c>, <c>messages</c>.</param>
    protected void ValidateSettings(string items)
    {
        if (Connections < 1 || Connections > DefaultLoad.MaxConnections)
        {
            throw new ArgumentException(string.Create(CultureInfo.InvariantCulture,
                $"--connections must be between 1 and {DefaultLoad.MaxConnections:n0} (got {Connections:n0})."));
        }

        if (Duration <= TimeSpan.Zero)
        {
            throw new ArgumentException("--duration must be greater than zero.");
        }

        if (Warmup < TimeSpan.Zero)
        {
            throw new ArgumentException("--warmup cannot be negative.");
        }

        if (Timeout <= TimeSpan.Zero)
        {
            throw new ArgumentException("--timeout must be greater than zero.");
        }

        if (Rate is { } rate && (!double.IsFinite(rate) || rate < 1 || rate > DefaultLoad.MaxRate))
        {
            throw new ArgumentException(string.Create(CultureInfo.InvariantCulture,
                $"--rate must be between 1 and {DefaultLoad.MaxRate:n0} {items} per second (got {rate:g6})."));
        }
    }
}

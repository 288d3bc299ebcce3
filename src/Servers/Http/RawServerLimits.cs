using System.Globalization;

namespace Benchmarks.Servers.Http;

/// <summary>
/// The time limits of the raw server models, set with <c>--server-option name=seconds</c>. A request
/// (head and body) must arrive within <see cref="RequestTimeout"/> of its first byte, or it is
/// answered 408 and the connection closed (Kestrel's RequestHeadersTimeout is 30 s); a connection
/// with no request under way is closed after <see cref="KeepAliveTimeout"/> (Kestrel: 130 s); a
/// closing connection drains what the client still sends for at most <see cref="DrainTimeout"/>, so
/// the last response is not destroyed by a reset.
/// </summary>
public sealed record RawServerLimits(TimeSpan RequestTimeout, TimeSpan KeepAliveTimeout, TimeSpan DrainTimeout)
{
    /// <summary>Connections open at once (<see cref="DescriptorBudget"/>); more wait in the listen backlog.</summary>
    public int MaxConnections { get; init; } = int.MaxValue;

    public const string RequestTimeoutName = "requestTimeout";
    public const string KeepAliveTimeoutName = "keepAliveTimeout";
    public const string DrainTimeoutName = "drainTimeout";

    /// <summary>The most a closing connection reads and discards.</summary>
    public const long MaxDrainBytes = 64L * 1024 * 1024;

    public static RawServerLimits Default { get; } = new(TimeSpan.FromSeconds(30), TimeSpan.FromSeconds(130), TimeSpan.FromSeconds(2));

    public static IReadOnlyList<string> Names { get; } = [RequestTimeoutName, KeepAliveTimeoutName, DrainTimeoutName, DescriptorBudget.MaxConnectionsName];

    public static bool IsName(string name) => Names.Contains(name, StringComparer.OrdinalIgnoreCase);

    /// <summary>Reads the limits from the server options (other names are the model's own); a bad value throws with its name.</summary>
    public static RawServerLimits Parse(IReadOnlyDictionary<string, string> options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new(
            Seconds(options, RequestTimeoutName, Default.RequestTimeout),
            Seconds(options, KeepAliveTimeoutName, Default.KeepAliveTimeout),
            Seconds(options, DrainTimeoutName, Default.DrainTimeout))
        {
            MaxConnections = DescriptorBudget.MaxConnections(options),
        };
    }

    /// <summary>
    /// The limits of one of <paramref name="loops"/> event loops on each of
    /// <paramref name="listeners"/> addresses: the connection limit shared out between them (each
    /// loop at least one).
    /// </summary>
    public RawServerLimits PerLoop(int loops, int listeners) =>
        this with { MaxConnections = Math.Max(1, MaxConnections / Math.Max(1, loops * listeners)) };

    private static TimeSpan Seconds(IReadOnlyDictionary<string, string> options, string name, TimeSpan fallback)
    {
        var text = options.FirstOrDefault(o => o.Key.Equals(name, StringComparison.OrdinalIgnoreCase)).Value;
        if (text is null)
        {
            return fallback;
        }

        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds) || seconds <= 0 || seconds > 86_400)
        {
            throw new ArgumentException($"server option '{name}' must be a number of seconds between 0 and 86400 (got '{text}').");
        }

        return TimeSpan.FromSeconds(seconds);
    }
}

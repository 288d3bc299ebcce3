using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Tcp;

/// <summary>What a TCP load run measured over its window: sent = echoed + failed (by cause) + unfinished.</summary>
public sealed record TcpLoadResult : Core.LoadWindowResult
{
    public TcpLoadMode Mode { get; init; }

    public int MessageSize { get; init; }

    public int Window { get; init; }

    public bool LingerZero { get; init; }

    /// <summary>Messages whose echo came back complete and byte-exact (its "Responses").</summary>
    public long Echoed { get; init; }

    /// <summary>Messages that failed, by cause (<see cref="TcpFailure"/> names).</summary>
    public required IReadOnlyDictionary<string, long> Failed { get; init; }

    /// <summary>Connection attempts that failed, by cause.</summary>
    public required IReadOnlyDictionary<string, long> ConnectFailed { get; init; }

    public double RequestsPerSecond => ElapsedSeconds > 0 ? Sent / ElapsedSeconds : 0;

    public double ResponsesPerSecond => ElapsedSeconds > 0 ? Echoed / ElapsedSeconds : 0;

    public long FailedTotal => Failed.Values.Sum();

    public long ConnectFailedTotal => ConnectFailed.Values.Sum();

    /// <summary>Each echo's round trip, from its own send (ms).</summary>
    public required LatencySummary RoundTrip { get; init; }

    /// <summary>Connect time (ms).</summary>
    public required LatencySummary Connect { get; init; }

    /// <summary>A failed echo or connect is never a clean result.</summary>
    public bool IsClean => !Interrupted && FailedTotal == 0 && ConnectFailedTotal == 0 && Echoed > 0;
}

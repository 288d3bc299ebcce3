namespace Benchmarks.Load.WebSockets;

public sealed record BroadcastResult
{
    public required IReadOnlyList<BroadcastStep> Steps { get; init; }

    public double LimitPercentile { get; init; }

    /// <summary>The largest client count whose sample stayed under the RTT limit (0 if none did).</summary>
    public int MaxClientsUnderLimit { get; init; }

    /// <summary>Σ(clients at step × sample size).</summary>
    public long ExpectedBroadcasts { get; init; }

    public long ReceivedBroadcasts { get; init; }

    public long Errors { get; init; }

    public string? FirstError { get; init; }

    /// <summary>Missing or extra broadcasts, or any client error, break the protocol.</summary>
    public bool IsClean => Errors == 0 && ExpectedBroadcasts == ReceivedBroadcasts && Steps.Count > 0;
}

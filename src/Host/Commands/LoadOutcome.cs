using Benchmarks.Load.Statistics;

namespace Benchmarks.Host.Commands;

/// <summary>What a load generator ended with: its measurements, its own result as JSON, and the one-line cause when it was not clean.</summary>
internal sealed record LoadOutcome(IReadOnlyDictionary<string, double> Measurements, Func<string> Json, string? Failure)
{
    /// <summary>The window's latency histogram (the request's, or the round trip's), when the generator has one.</summary>
    public LatencyHistogram? Latency { get; init; }

    /// <summary>The <c>window:</c> line (steady, noisy, not steady, with its drift and noise), when the generator judged its window.</summary>
    public string? Window { get; init; }
}

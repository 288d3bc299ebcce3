using System.Text.Json.Serialization;

namespace Benchmarks.Load.Statistics;

/// <summary>Latency percentiles in milliseconds.</summary>
public sealed record LatencySummary(double Mean, double StandardDeviation, double Min, double P50, double P75, double P90, double P99, double P999, double Max)
{
    /// <summary>The histogram (ns) the summary was read from, for a full distribution; not part of the JSON.</summary>
    [JsonIgnore]
    public LatencyHistogram? Histogram { get; init; }

    public static LatencySummary From(LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        const double NsPerMs = 1_000_000.0;
        return new LatencySummary(
            histogram.Mean / NsPerMs,
            histogram.StandardDeviation() / NsPerMs,
            histogram.Min / NsPerMs,
            histogram.ValueAtPercentile(50) / NsPerMs,
            histogram.ValueAtPercentile(75) / NsPerMs,
            histogram.ValueAtPercentile(90) / NsPerMs,
            histogram.ValueAtPercentile(99) / NsPerMs,
            histogram.ValueAtPercentile(99.9) / NsPerMs,
            histogram.Max / NsPerMs)
        {
            Histogram = histogram,
        };
    }
}

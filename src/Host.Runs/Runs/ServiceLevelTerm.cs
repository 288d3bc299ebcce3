using System.Globalization;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>
/// One term of a <see cref="ServiceLevel"/>: a latency under a limit (ms), named by its place in a
/// latency family (<c>99</c>, <c>99.9</c>, <c>mean</c>, <c>max</c>) and read in the run's own family
/// (<c>http/latency/99</c>, <c>ws/rtt/99</c>, <c>tcp/rtt/99</c>); or, with no latency, the failure
/// share under a limit (%).
/// </summary>
internal sealed record ServiceLevelTerm(string Text, string? Latency, double Limit)
{
    /// <summary>The measurement this term reads in a run, or null for the failure share or a run that reports no latency.</summary>
    public Measurement? In(IReadOnlyDictionary<string, double> measurements) =>
        Latency is null ? null : LatencyMeasures.Of(measurements)?.Find(Latency);

    /// <summary>
    /// The share of requests above the term's percentile (0.01 for p99; 0.01 for the mean; 0 for
    /// the max, where one request decides it); null for the failure share.
    /// </summary>
    public double? TailShare => Latency switch
    {
        null => null,
        "max" => 0,
        "mean" => 0.01,
        var percentile when double.TryParse(percentile, NumberStyles.Float, CultureInfo.InvariantCulture, out var p) => (100 - p) / 100,
        _ => null,
    };
}

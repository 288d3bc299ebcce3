using System.Globalization;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>One term of a <see cref="ServiceLevel"/>: a latency measurement under a limit (ms), or, with no measurement, the error share under a limit (%).</summary>
internal sealed record ServiceLevelTerm(string Text, Measurement? Measurement, double Limit)
{
    /// <summary>
    /// The share of requests above the term's percentile (0.01 for p99; 0.01 for the mean; 0 for
    /// the max, where one request decides it); null for the error share.
    /// </summary>
    public double? TailShare => Measurement?.Name[(Measurement.Name.LastIndexOf('/') + 1)..] switch
    {
        null => null,
        "max" => 0,
        "mean" => 0.01,
        var percentile when double.TryParse(percentile, NumberStyles.Float, CultureInfo.InvariantCulture, out var p) => (100 - p) / 100,
        _ => null,
    };
}

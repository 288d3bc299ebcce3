using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>
/// Combines a run's iterations: each measurement's value is the mean of the iterations (as crank
/// averages them), with its median, standard deviation, coefficient of variation and the 95%
/// confidence interval of the mean (Student's t, n − 1 degrees of freedom).
/// </summary>
internal static class IterationStatistics
{
    /// <summary>Two-sided 97.5% quantiles of Student's t for 1 to 30 degrees of freedom; 1.96 beyond.</summary>
    private static readonly double[] s_t975 =
    [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];

    public static void Combine(RunDocument document, IReadOnlyList<SortedDictionary<string, double>> iterations)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(iterations);
        document.Iterations = [.. iterations];
        foreach (var name in iterations.SelectMany(i => i.Keys).Distinct(StringComparer.Ordinal))
        {
            var values = iterations.Where(i => i.ContainsKey(name)).Select(i => i[name]).ToList();
            var spread = Of(values);
            document.Measurements[name] = spread.Mean;
            if (values.Count > 1)
            {
                document.Spread[name] = spread;
            }
        }
    }

    public static Spread Of(IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var n = values.Count;
        var mean = values.Average();
        var deviation = n > 1 ? Math.Sqrt(values.Sum(v => (v - mean) * (v - mean)) / (n - 1)) : 0;
        var t = n > 1 ? (n - 1 <= s_t975.Length ? s_t975[n - 2] : 1.96) : 0;
        var half = n > 1 ? t * deviation / Math.Sqrt(n) : 0;
        return new Spread
        {
            Iterations = n,
            Mean = mean,
            Median = Operation.Median.Apply(values),
            StandardDeviation = deviation,
            CvPercent = mean == 0 ? 0 : deviation / Math.Abs(mean) * 100,
            CiLow = mean - half,
            CiHigh = mean + half,
        };
    }
}

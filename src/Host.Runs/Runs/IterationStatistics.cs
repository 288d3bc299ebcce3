using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>
/// Combines a run's iterations: each measurement's value is the mean of the iterations (as crank
/// averages them), with its median, standard deviation, coefficient of variation and a 95%
/// confidence interval (Student's t, n − 1 degrees of freedom; on the logarithms for a quantity
/// that cannot be negative, so that the interval stays positive). <c>--exclude N</c>
/// first leaves out the N highest and N lowest iterations by one measurement, as crank's
/// <c>--exclude</c> / <c>--exclude-order</c> do; they stay in the document, marked.
/// </summary>
internal static class IterationStatistics
{
    /// <summary>Two-sided 97.5% quantiles of Student's t for 1 to 30 degrees of freedom; 1.96 beyond.</summary>
    private static readonly double[] s_t975 =
    [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];

    /// <summary>The measurements that rank iterations for <c>--exclude</c> when none is named: the load's throughput.</summary>
    public static readonly IReadOnlyList<string> DefaultOrder = [.. MeasurementCatalog.WithRole(MeasurementRole.Headline).Select(m => m.Name)];

    public static void Combine(RunDocument document, IReadOnlyList<SortedDictionary<string, double>> iterations, int exclude = 0, string? order = null)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(iterations);
        document.Iterations = [.. iterations];
        if (exclude > 0)
        {
            Exclude(document, exclude, order);
        }

        var kept = document.KeptIterations();
        foreach (var name in kept.SelectMany(i => i.Keys).Distinct(StringComparer.Ordinal))
        {
            var values = kept.Where(i => i.ContainsKey(name)).Select(i => i[name]).ToList();
            var spread = Of(values);
            document.Measurements[name] = spread.Mean;
            if (values.Count > 1)
            {
                document.Spread[name] = spread;
            }
        }
    }

    /// <summary>Marks the <paramref name="count"/> highest and lowest iterations by <paramref name="order"/>.</summary>
    private static void Exclude(RunDocument document, int count, string? order)
    {
        var iterations = document.Iterations!;
        var name = order ?? DefaultOrder.FirstOrDefault(n => iterations.All(i => i.ContainsKey(n)));
        if (name is null || !iterations.All(i => i.ContainsKey(name)) || iterations.Count - (2 * count) < 1)
        {
            // Nothing ranks every iteration, or too few would be left: keep them all, and say so by leaving ExcludeOrder unset.
            return;
        }

        var ranked = iterations.Select((values, index) => (Value: values[name], Number: index + 1)).OrderBy(p => p.Value).ThenBy(p => p.Number).ToList();
        document.ExcludeOrder = name;
        document.ExcludedIterations = [.. ranked.Take(count).Concat(ranked.TakeLast(count)).Select(p => p.Number).Order()];
    }

    public static Spread Of(IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        var n = values.Count;
        var mean = values.Average();
        var deviation = n > 1 ? Math.Sqrt(values.Sum(v => (v - mean) * (v - mean)) / (n - 1)) : 0;
        var t = n > 1 ? (n - 1 <= s_t975.Length ? s_t975[n - 2] : 1.96) : 0;
        var half = n > 1 ? t * deviation / Math.Sqrt(n) : 0;
        var (low, high) = (mean - half, mean + half);
        if (n > 1 && values.All(v => v > 0))
        {
            // A quantity that cannot be negative (a rate, a latency): Student's t on the logarithms, so the
            // interval stays above zero however few and spread the iterations; for a small spread it is the
            // mean's t interval above.
            var logs = values.Select(v => Math.Log(v)).ToList();
            var logMean = logs.Average();
            var logHalf = t * Math.Sqrt(logs.Sum(v => (v - logMean) * (v - logMean)) / (n - 1)) / Math.Sqrt(n);
            (low, high) = (Math.Exp(logMean - logHalf), Math.Exp(logMean + logHalf));
        }

        return new Spread
        {
            Iterations = n,
            Mean = mean,
            Median = Operation.Median.Apply(values),
            StandardDeviation = deviation,
            CvPercent = mean == 0 ? 0 : deviation / Math.Abs(mean) * 100,
            CiLow = low,
            CiHigh = high,
        };
    }
}

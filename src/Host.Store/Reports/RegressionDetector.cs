namespace Benchmarks.Host.Reports;

/// <summary>
/// Flags runs that leave the band of the runs before them, the way the ASP.NET team's regression bot
/// does: by default two results in a row outside mean ± 2σ of the previous seven. The band is taken
/// from the runs before the first of the consecutive ones, and is never narrower than ±1% of its mean
/// (a perfectly flat history would otherwise flag any change at all). With <c>samples</c>, the band
/// is taken over every sample of those runs (each run's kept iterations) rather than their means.
/// </summary>
internal static class RegressionDetector
{
    public static IReadOnlyList<HistoryPoint> Analyze(IReadOnlyList<(Documents.RunDocument Run, double Value)> series, int window, double sigmas,
        int consecutive, bool? higherIsBetter, Func<Documents.RunDocument, IReadOnlyList<double>>? samples = null)
    {
        ArgumentNullException.ThrowIfNull(series);
        if (window < 2 || consecutive < 1 || !double.IsFinite(sigmas) || sigmas <= 0)
        {
            throw new ArgumentException("--window must be at least 2, --consecutive at least 1 and --sigma a number above 0.");
        }

        var points = new List<HistoryPoint>(series.Count);
        for (var i = 0; i < series.Count; i++)
        {
            var (run, value) = series[i];
            var first = i - consecutive + 1;
            if (first - window < 0)
            {
                var (low0, high0) = i >= window ? Band(series, i - window, window, sigmas, samples) : (double.NaN, double.NaN);
                points.Add(new HistoryPoint(run, value, i >= window ? low0 : null, i >= window ? high0 : null, i >= window && (value < low0 || value > high0),
                    false, null));
                continue;
            }

            // Each of the consecutive points is judged against the band before the first of them.
            var (low, high) = Band(series, first - window, window, sigmas, samples);
            var outside = value < low || value > high;
            var run0 = Enumerable.Range(first, consecutive).Select(j => series[j].Value).ToArray();
            var allAbove = run0.All(v => v > high);
            var allBelow = run0.All(v => v < low);
            var flagged = allAbove || allBelow;
            string? direction = null;
            if (flagged)
            {
                direction = higherIsBetter is null ? (allAbove ? "up" : "down") : (allAbove == higherIsBetter.Value ? "improvement" : "regression");
            }

            points.Add(new HistoryPoint(run, value, low, high, outside, flagged, direction));
        }

        return points;
    }

    private static (double Low, double High) Band(IReadOnlyList<(Documents.RunDocument Run, double Value)> series, int start, int count, double sigmas,
        Func<Documents.RunDocument, IReadOnlyList<double>>? samples)
    {
        var values = Enumerable.Range(start, count)
            .SelectMany(j => samples?.Invoke(series[j].Run) is { Count: > 0 } each ? each : [series[j].Value])
            .ToArray();
        var mean = values.Average();
        var sd = Math.Sqrt(values.Sum(v => (v - mean) * (v - mean)) / (values.Length - 1));
        var half = Math.Max(sigmas * sd, Math.Abs(mean) * 0.01);

        // A band of values that are never negative (rates, latencies) stops at zero.
        return (values.All(v => v >= 0) ? Math.Max(0, mean - half) : mean - half, mean + half);
    }
}

namespace Benchmarks.Load.Statistics;

/// <summary>
/// The trend of a per-second series, estimated so that one bad second cannot hide it: the
/// Theil–Sen slope (the median of the slopes between every pair of seconds) as the drift across
/// the series in % of its median, and the Mann–Kendall statistic (how consistently later seconds
/// are higher or lower than earlier ones, as a normal z score) for whether it stands out of the
/// noise. Two questions, two rules:
/// <list type="bullet">
/// <item><see cref="IsSettled"/> — may the warm-up stop? Only when the drift is under
/// <see cref="DriftLimitPercent"/>: evidence of a flat series, not just no proof of a trend.</item>
/// <item><see cref="IsSteady"/> — was the measured window steady? Unless the drift is at least
/// <see cref="DriftLimitPercent"/> and stands out of the noise (|z| ≥ <see cref="ZLimit"/>, two-sided p &lt; 0.01).</item>
/// </list>
/// </summary>
public static class Trend
{
    public const double DriftLimitPercent = 10;

    /// <summary>Two-sided 1% critical value of the standard normal distribution.</summary>
    public const double ZLimit = 2.576;

    /// <summary>The drift across the series as % of its median (Theil–Sen), and the Mann–Kendall z score.</summary>
    public static (double DriftPercent, double Z) Fit(IReadOnlyList<double> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var n = series.Count;
        if (n < 3)
        {
            return (0, 0);
        }

        var slopes = new double[n * (n - 1) / 2];
        var k = 0;
        var s = 0;
        for (var i = 0; i < n - 1; i++)
        {
            for (var j = i + 1; j < n; j++)
            {
                slopes[k++] = (series[j] - series[i]) / (j - i);
                s += Math.Sign(series[j] - series[i]);
            }
        }

        var slope = Median(slopes);
        var level = Median([.. series]);
        var drift = level == 0 ? 0 : slope * (n - 1) / Math.Abs(level) * 100;

        // Mann–Kendall: S over every pair, its variance under no trend, with a continuity correction.
        var variance = n * (n - 1) * ((2.0 * n) + 5) / 18;
        var z = s == 0 ? 0 : (s - Math.Sign(s)) / Math.Sqrt(variance);
        return (drift, z);
    }

    /// <summary>Whether a warm-up may stop: the drift over its last seconds is under the limit.</summary>
    public static bool IsSettled(double driftPercent) => Math.Abs(driftPercent) < DriftLimitPercent;

    /// <summary>
    /// Whether a warm-up's last seconds are back at the best level it held before: their median
    /// within <see cref="DriftLimitPercent"/> of the highest median of as many consecutive seconds
    /// seen so far. A flat stretch below an earlier plateau is a dip still recovering (after a late
    /// recompilation), not the steady state.
    /// </summary>
    public static bool IsRecovered(double level, double best) => level >= best * (1 - (DriftLimitPercent / 100));

    /// <summary>The median of a series: its level, as the warm-up compares it.</summary>
    public static double Level(IReadOnlyList<double> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        return series.Count == 0 ? 0 : Median([.. series]);
    }

    /// <summary>Whether a measured window was steady: not both a drift at the limit and a trend out of the noise.</summary>
    public static bool IsSteady(double driftPercent, double z) => Math.Abs(driftPercent) < DriftLimitPercent || Math.Abs(z) < ZLimit;

    private static double Median(double[] values)
    {
        Array.Sort(values);
        var middle = values.Length / 2;
        return values.Length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }
}

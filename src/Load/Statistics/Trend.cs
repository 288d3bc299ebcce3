namespace Benchmarks.Load.Statistics;

/// <summary>
/// The least-squares trend of a per-second series and whether it is steady: the trend across the
/// series is under <see cref="DriftLimitPercent"/> of its mean, or does not stand out of the
/// second-to-second noise (|t| &lt; <see cref="TLimit"/>). One rule for the adaptive warm-up and
/// for the check of the measured window.
/// </summary>
public static class Trend
{
    public const double DriftLimitPercent = 10;

    public const double TLimit = 3;

    /// <summary>The trend across the series as % of its mean, and its t statistic (slope over its standard error).</summary>
    public static (double DriftPercent, double T) Fit(IReadOnlyList<double> series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var n = series.Count;
        if (n < 3)
        {
            return (0, 0);
        }

        var meanX = (n - 1) / 2.0;
        var meanY = series.Average();
        double sxx = 0, sxy = 0;
        for (var i = 0; i < n; i++)
        {
            sxx += (i - meanX) * (i - meanX);
            sxy += (i - meanX) * (series[i] - meanY);
        }

        var slope = sxy / sxx;
        var residuals = 0.0;
        for (var i = 0; i < n; i++)
        {
            var fitted = meanY + (slope * (i - meanX));
            residuals += (series[i] - fitted) * (series[i] - fitted);
        }

        var standardError = Math.Sqrt(residuals / (n - 2)) / Math.Sqrt(sxx);
        var drift = meanY == 0 ? 0 : slope * (n - 1) / meanY * 100;
        var t = standardError == 0 ? (slope == 0 ? 0 : double.PositiveInfinity * Math.Sign(slope)) : slope / standardError;
        return (drift, t);
    }

    public static bool IsSteady(double driftPercent, double t) => Math.Abs(driftPercent) < DriftLimitPercent || Math.Abs(t) < TLimit;
}

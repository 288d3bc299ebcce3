using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The rule that calls a measured window steady: over its per-second rate, the least-squares
/// trend across the window is under <see cref="DriftLimitPercent"/> of the mean, or does not
/// stand out of the second-to-second noise (|t| &lt; <see cref="TLimit"/>). A window still
/// climbing (tiered JIT, PGO) or sagging (a leak, thermal) fails both. Needs
/// <see cref="MinimumSeconds"/> seconds.
/// </summary>
internal static class SteadinessRule
{
    public const double DriftLimitPercent = 10;

    public const double TLimit = 3;

    public const int MinimumSeconds = 5;

    public static WindowCheck Check(string series, IReadOnlyList<double> perSecond)
    {
        ArgumentNullException.ThrowIfNull(perSecond);
        var check = new WindowCheck { Series = series, Seconds = perSecond.Count };
        if (perSecond.Count < MinimumSeconds)
        {
            check.Verdict = "too short";
            return check;
        }

        var n = perSecond.Count;
        var meanX = (n - 1) / 2.0;
        var meanY = perSecond.Average();
        double sxx = 0, sxy = 0;
        for (var i = 0; i < n; i++)
        {
            sxx += (i - meanX) * (i - meanX);
            sxy += (i - meanX) * (perSecond[i] - meanY);
        }

        var slope = sxy / sxx;
        var residuals = 0.0;
        for (var i = 0; i < n; i++)
        {
            var fitted = meanY + (slope * (i - meanX));
            residuals += (perSecond[i] - fitted) * (perSecond[i] - fitted);
        }

        var standardError = Math.Sqrt(residuals / (n - 2)) / Math.Sqrt(sxx);
        check.DriftPercent = meanY == 0 ? 0 : slope * (n - 1) / meanY * 100;
        check.TStatistic = standardError == 0 ? (slope == 0 ? 0 : double.PositiveInfinity * Math.Sign(slope)) : slope / standardError;
        check.Verdict = Math.Abs(check.DriftPercent) >= DriftLimitPercent && Math.Abs(check.TStatistic) >= TLimit ? "not steady" : "steady";
        return check;
    }
}

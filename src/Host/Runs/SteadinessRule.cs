using Benchmarks.Host.Documents;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The rule that calls a measured window steady: over its per-second rate, the least-squares
/// trend across the window is under <see cref="Trend.DriftLimitPercent"/> of the mean, or does not
/// stand out of the second-to-second noise (|t| &lt; <see cref="Trend.TLimit"/>). A window still
/// climbing (tiered JIT, PGO) or sagging (a leak, thermal) fails both. Needs
/// <see cref="MinimumSeconds"/> seconds.
/// </summary>
internal static class SteadinessRule
{
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

        (check.DriftPercent, check.TStatistic) = Trend.Fit(perSecond);
        check.Verdict = Trend.IsSteady(check.DriftPercent, check.TStatistic) ? "steady" : "not steady";
        return check;
    }
}

using Benchmarks.Host.Documents;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// The rule that calls a measured window steady: over its per-second rate, the robust trend
/// across the window (Theil–Sen) is under <see cref="Trend.DriftLimitPercent"/> of the median, or
/// does not stand out of the second-to-second noise (Mann–Kendall |z| &lt; <see cref="Trend.ZLimit"/>).
/// A window still climbing (tiered JIT, PGO) or sagging (a leak, thermal) fails both; one bad
/// second does not hide a trend. A drift at the limit that does not stand out of the noise is
/// <c>noisy</c>: no trend shown, but the seconds varied too much to call the window flat.
/// Needs <see cref="MinimumSeconds"/> seconds. A second below a tenth of the upper quartile is a stall (the
/// server paused, froze or lost its connections): a window with one is not steady, whatever its trend.
/// </summary>
internal static class SteadinessRule
{
    public const int MinimumSeconds = 5;

    /// <summary>How many seconds of the server's JIT the warm-up's quiet test and the window's JIT note read.</summary>
    public const int JitQuietSeconds = 5;

    /// <summary>0.5% of one core over <see cref="JitQuietSeconds"/>: a stray late compilation, not a tier-up under way.</summary>
    public const double JitQuietMilliseconds = 25;

    /// <summary>
    /// A second below this share of the window's upper quartile is a stall (the quartile, not the
    /// median, so that a stall of half the window still shows).
    /// </summary>
    public const double StallShare = 0.1;

    public static WindowCheck Check(string series, IReadOnlyList<double> perSecond)
    {
        ArgumentNullException.ThrowIfNull(perSecond);
        var check = new WindowCheck { Series = series, Seconds = perSecond.Count };
        if (perSecond.Count < MinimumSeconds)
        {
            check.Verdict = "too short";
            return check;
        }

        // A window in which nothing completed has no trend to judge: it is empty, not steady.
        if (perSecond.All(v => v == 0))
        {
            check.Verdict = "empty";
            return check;
        }

        (check.DriftPercent, check.TrendZ) = Trend.Fit(perSecond);
        var mean = perSecond.Average();
        check.CvPercent = mean == 0 ? 0 : Math.Sqrt(perSecond.Sum(v => (v - mean) * (v - mean)) / (perSecond.Count - 1)) / mean * 100;
        var sorted = perSecond.Order().ToList();
        var upperQuartile = sorted[(int)Math.Floor(0.75 * (sorted.Count - 1))];
        check.StalledSeconds = upperQuartile > 0 ? perSecond.Count(v => v < upperQuartile * StallShare) : 0;
        check.Verdict = check.StalledSeconds > 0 || !Trend.IsSteady(check.DriftPercent, check.TrendZ) ? "not steady"
            : Math.Abs(check.DriftPercent) >= Trend.DriftLimitPercent ? "noisy"
            : "steady";
        return check;
    }
}

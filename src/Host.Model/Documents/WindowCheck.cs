namespace Benchmarks.Host.Documents;

/// <summary>Whether the measured window was steady: the trend of its per-second rate, and the rule's verdict.</summary>
public sealed class WindowCheck
{
    /// <summary>
    /// <c>steady</c>, <c>not steady</c>, <c>noisy</c> (a drift at the limit, not out of the noise),
    /// or <c>too short</c> (fewer seconds than the rule needs).
    /// </summary>
    public string Verdict { get; set; } = "";

    /// <summary>The per-second series the rule read (<c>load/rate</c>).</summary>
    public string Series { get; set; } = "";

    /// <summary>The trend over the window (Theil–Sen slope × its length), % of the series' median (positive: still speeding up).</summary>
    public double DriftPercent { get; set; }

    /// <summary>The Mann–Kendall z score of the trend: how consistently it stands out of the second-to-second noise.</summary>
    public double TrendZ { get; set; }

    public int Seconds { get; set; }

    /// <summary>
    /// Seconds whose value fell below a tenth of the window's upper quartile (a stall: a pause, a
    /// freeze, a lost server); any makes the window not steady.
    /// </summary>
    public int StalledSeconds { get; set; }

    /// <summary>Coefficient of variation of the per-second values, %: how noisy the seconds were.</summary>
    public double CvPercent { get; set; }

    /// <summary>
    /// The server's JIT compile time over the window's first seconds (ms; null when the server
    /// reported none): a tier-up still under way when the window began.
    /// </summary>
    public double? JitMilliseconds { get; set; }

    /// <summary>
    /// The best level the warm-up before it held (the highest median of 6 consecutive seconds, per
    /// second; null without a warm-up that long): a window well below it fell from where the server
    /// had been.
    /// </summary>
    public double? WarmupBestLevel { get; set; }

    /// <summary>The window's level (median per second) as a change from <see cref="WarmupBestLevel"/>, % (negative: below it).</summary>
    public double? FromWarmupPercent { get; set; }

    /// <summary>
    /// What moved the rate, for a window that was not steady or fell below its warm-up's level while
    /// the server's JIT was quiet (<c>Verdicts/DriftRule</c>): its kind, clause and figures; null when
    /// the rule had nothing to compare or the two sides served alike.
    /// </summary>
    public VerdictCause? Cause { get; set; }

    /// <summary>The iteration whose window this is, when the run measured several (the first one not steady, else the last).</summary>
    public int? Iteration { get; set; }
}

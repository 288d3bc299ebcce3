namespace Benchmarks.Host.Documents;

/// <summary>Whether the measured window was steady: the trend of its per-second rate, and the rule's verdict.</summary>
public sealed class WindowCheck
{
    /// <summary><c>steady</c>, <c>not steady</c>, or <c>too short</c> (fewer seconds than the rule needs).</summary>
    public string Verdict { get; set; } = "";

    /// <summary>The per-second series the rule read (<c>http/rps</c>, …).</summary>
    public string Series { get; set; } = "";

    /// <summary>The least-squares trend over the window, % of the series' mean (positive: still speeding up).</summary>
    public double DriftPercent { get; set; }

    /// <summary>The trend's t statistic (slope over its standard error): how far the trend stands out of the noise.</summary>
    public double TStatistic { get; set; }

    public int Seconds { get; set; }
}

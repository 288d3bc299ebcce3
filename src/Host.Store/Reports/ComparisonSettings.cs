namespace Benchmarks.Host.Reports;

/// <param name="ThresholdPercent">Smallest relative change reported as significant.</param>
/// <param name="Alpha">Significance level of the Mann–Whitney test.</param>
internal sealed record ComparisonSettings(double ThresholdPercent = 5, double Alpha = 0.05)
{
    /// <summary>Absolute changes below this are noise whatever the test says (per unit).</summary>
    public static double NoiseFloor(string unit) => unit switch
    {
        "ms" => 0.01,
        "us" => 0.1,
        "%" => 0.5,
        _ => 0,
    };
}

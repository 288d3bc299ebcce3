namespace Benchmarks.Host.Reports;

/// <summary>One measurement compared: medians, change, and the test's verdict.</summary>
internal sealed record ComparisonRow(
    string Name,
    string Unit,
    bool? HigherIsBetter,
    IReadOnlyList<double> Baseline,
    IReadOnlyList<double> Candidate,
    double BaselineMedian,
    double CandidateMedian,
    double ChangePercent,
    double? PValue,
    ComparisonVerdict Verdict,
    string Note)
{
    /// <summary>
    /// The Hodges–Lehmann confidence interval of the change, %: of the ratio where both sides are
    /// positive, else of the shift over the baseline median (NaN when not available).
    /// </summary>
    public double ChangeLow { get; init; } = double.NaN;

    /// <inheritdoc cref="ChangeLow"/>
    public double ChangeHigh { get; init; } = double.NaN;
}

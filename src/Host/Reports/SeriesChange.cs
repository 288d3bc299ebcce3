using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// A change found in one measurement of a series: the step, the last run before it and the first
/// after, the run that undid it (when a later change did), and what differed between the two runs.
/// </summary>
internal sealed record SeriesChange(Series Series, string Measurement, MeasurementInfo Info, ChangePoint Point, RunDocument LastBefore, RunDocument FirstAfter, RunDocument? RecoveredBy, IReadOnlyList<string> Differences)
{
    /// <summary><c>regression</c> or <c>improvement</c> by the measurement's direction; <c>up</c> or <c>down</c> when it has none.</summary>
    public string Direction => Info.HigherIsBetter is not { } higher ? (Point.Change > 0 ? "up" : "down")
        : Point.Change > 0 == higher ? "improvement" : "regression";

    public bool IsRegression => Direction == "regression";
}

using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// A change found in one measurement of a series: the step, the last run before it and the first
/// after, the run that undid it (when a later change did), and what changed: between the two runs,
/// or, as a change is placed to within a few runs in noise, between the nearest two runs in a row
/// around it that differ (<paramref name="ChangedAt"/>: runs from the change to the first run
/// that differs from the one before it; 0 when that is the first run after).
/// </summary>
internal sealed record SeriesChange(Series Series, string Measurement, MeasurementInfo Info, ChangePoint Point, RunDocument LastBefore, RunDocument FirstAfter,
    RunDocument? RecoveredBy, IReadOnlyList<string> Differences, int ChangedAt = 0)
{
    /// <summary>The change's 95% interval, % of the level before: Hodges–Lehmann's, over the runs of the two levels, as <c>compare</c> gives it.</summary>
    public (double Low, double High) Interval { get; init; } = (double.NaN, double.NaN);

    /// <summary>The runs within <see cref="Reach"/> of the change on either side (and the one before), where what changed is looked for.</summary>
    public IReadOnlyList<RunDocument> Around { get; init; } = [];

    /// <summary>The first run after the change, as a position in <see cref="Around"/>.</summary>
    public int AroundIndex { get; init; }

    /// <summary>How many runs from the change a difference is looked for.</summary>
    public int Reach { get; init; }

    /// <summary>The first run of the level before the change (after the previous change, or the series' first).</summary>
    public RunDocument? LevelBefore { get; init; }

    /// <summary>
    /// How the windows of the runs around the change held, before it and after, and what moved them
    /// (<see cref="WindowShift"/>), when a window of either side moved; null otherwise. A step whose
    /// runs after it had windows the machine moved is the machine's as likely as the code's.
    /// </summary>
    public string? Windows { get; init; }

    /// <summary>The first run of the level after this change's (the next change's first run); null when the series ends at this level.</summary>
    public RunDocument? NextLevel { get; init; }

    /// <summary><c>compare</c> of the runs of the level before against those of the level after, as filters a shell takes.</summary>
    public string CompareCommand
    {
        get
        {
            static string At(RunDocument run) => run.StartedAt.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", System.Globalization.CultureInfo.InvariantCulture);
            var side = $"series={Series.Id}";
            return $"benchmarks compare \"{side},since={At(LevelBefore ?? LastBefore)},until={At(FirstAfter)}\" " +
                $"\"{side},since={At(FirstAfter)}{(NextLevel is { } next ? $",until={At(next)}" : "")}\"";
        }
    }

    /// <summary>What changed, in words: the differences, with where they are when not at the change itself.</summary>
    public string WhatChanged => Differences.Count == 0 ? "nothing recorded (the same commit, dependencies, machine and settings)"
        : (ChangedAt == 0 ? "" : $"{Math.Abs(ChangedAt)} run{(Math.Abs(ChangedAt) == 1 ? "" : "s")} {(ChangedAt < 0 ? "before" : "after")} the change: ")
            + string.Join("; ", Differences);

    /// <summary><c>regression</c> or <c>improvement</c> by the measurement's direction; <c>up</c> or <c>down</c> when it has none.</summary>
    public string Direction => Info.HigherIsBetter is not { } higher ? (Point.Change > 0 ? "up" : "down")
        : Point.Change > 0 == higher ? "improvement" : "regression";

    public bool IsRegression => Direction == "regression";
}

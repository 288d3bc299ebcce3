using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// How steady each side's windows were, from the runs' stored window verdicts and what moved them
/// (<see cref="WindowCheck.Cause"/>): said when a run on either side has a window that moved (not
/// steady, noisy, empty, or below its warm-up's level), since a change measured over windows that
/// moved is partly the machine's, not the stack's alone.
/// </summary>
internal static class WindowShift
{
    /// <summary>"steady (2 of 3), not steady: machine-speed (1 of 3)"; null when no run of the side stored a window verdict.</summary>
    public static string? Of(RunGroup group)
    {
        ArgumentNullException.ThrowIfNull(group);
        var judged = group.Runs.Where(r => r.Window is not null).ToList();
        if (judged.Count == 0)
        {
            return null;
        }

        return string.Join(", ", judged.GroupBy(State, StringComparer.Ordinal).OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => $"{g.Key} ({g.Count()} of {judged.Count})"));
    }

    /// <summary>The line for a terminal, or none when every window on both sides held (or none was judged).</summary>
    public static IEnumerable<string> Lines(RunGroup baseline, RunGroup candidate)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        if (!baseline.Runs.Concat(candidate.Runs).Any(r => r.Window is not null && Moved(r.Window)))
        {
            yield break;
        }

        yield return $"window: baseline {Of(baseline) ?? "not judged"}; candidate {Of(candidate) ?? "not judged"} " +
            "(a change over windows that moved is not the stack's alone: compare runs made side by side, or with --iterations)";
    }

    /// <summary>A run's window as its verdict, a fall from its warm-up's level, and what moved it.</summary>
    public static string State(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        if (run.Window is not { } window)
        {
            return "not judged";
        }

        var state = Fell(window) ? $"{window.Verdict}, below its warm-up" : window.Verdict;
        return window.Cause is { } cause ? $"{state}: {cause.Kind}" : state;
    }

    private static bool Moved(WindowCheck window) => window.Verdict is "not steady" or "noisy" or "empty" || Fell(window);

    private static bool Fell(WindowCheck window) => window.FromWarmupPercent <= -Benchmarks.Load.Statistics.Trend.DriftLimitPercent;
}

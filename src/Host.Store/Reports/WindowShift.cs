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
    public static string? Of(IEnumerable<RunDocument> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        return Tally.Of(runs.Where(r => r.Window is not null).ToList(), State);
    }

    /// <summary>The line for a terminal, or none when every window on both sides held (or none was judged).</summary>
    public static IEnumerable<string> Lines(RunGroup baseline, RunGroup candidate)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        if (Between("baseline", baseline.Runs, "candidate", candidate.Runs) is { } between)
        {
            yield return $"window: {between} (a change over windows that moved is not the stack's alone: compare runs made side by side, or with --iterations)";
        }
    }

    /// <summary>
    /// "baseline steady (4 of 4); candidate not steady: machine-speed (2 of 4), …"; null when every
    /// window of both held (or none was judged).
    /// </summary>
    public static string? Between(string firstName, IReadOnlyList<RunDocument> first, string secondName, IReadOnlyList<RunDocument> second)
    {
        ArgumentNullException.ThrowIfNull(first);
        ArgumentNullException.ThrowIfNull(second);
        return first.Concat(second).Any(r => r.Window is not null && Moved(r.Window))
            ? $"{firstName} {Of(first) ?? "not judged"}; {secondName} {Of(second) ?? "not judged"}"
            : null;
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

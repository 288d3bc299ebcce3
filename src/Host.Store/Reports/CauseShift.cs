using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// What limited each side of a comparison, from the runs' stored causes: each distinct verdict
/// (its sure causes' kinds, joined) with how many of the side's runs had it. Said when a side's
/// verdicts differ from the other's or among themselves: a change of rate that came with a change
/// of cause is a different finding from one that did not.
/// </summary>
internal static class CauseShift
{
    /// <summary>"server-cpu (4 of 4)", "server-cpu + gc (3 of 4), server-cpu (1 of 4)"; null when no run of the side stored causes.</summary>
    public static string? Of(RunGroup group)
    {
        ArgumentNullException.ThrowIfNull(group);
        return Tally.Of(group.Runs.Where(r => r.Causes.Count > 0).ToList(), Verdict);
    }

    /// <summary>The line for a terminal, or none when both sides' runs all had the same verdict (or stored none).</summary>
    public static IEnumerable<string> Lines(RunGroup baseline, RunGroup candidate)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var before = Of(baseline);
        var after = Of(candidate);
        var verdicts = baseline.Runs.Concat(candidate.Runs).Where(r => r.Causes.Count > 0).Select(Verdict).Distinct(StringComparer.Ordinal).Count();
        if (before is null || after is null || verdicts <= 1)
        {
            yield break;
        }

        yield return $"bound: baseline {before}; candidate {after}";
    }

    /// <summary>A run's verdict as its sure causes' kinds.</summary>
    public static string Verdict(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var sure = run.Causes.Where(c => c.Certainty == VerdictCause.Sure).Select(c => c.Kind).ToList();
        return sure.Count == 0 ? "unclear" : string.Join(" + ", sure);
    }
}

using System.Globalization;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// Which methods gained or lost share of the samples between two traced runs: each method's
/// exclusive share in the baseline's trace and in the candidate's (the last traced run of each
/// side), the largest moves first, those that moved at least <see cref="SmallestMove"/> points.
/// </summary>
internal static class TraceShift
{
    public const double SmallestMove = 1;

    public static IReadOnlyList<(string Method, double Baseline, double Candidate)> Of(RunGroup baseline, RunGroup candidate, int rows = 8)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        if (baseline.Runs.LastOrDefault(r => r.Trace is { Samples: > 0 })?.Trace is not { } before
            || candidate.Runs.LastOrDefault(r => r.Trace is { Samples: > 0 })?.Trace is not { } after)
        {
            return [];
        }

        var was = before.Methods.ToDictionary(m => m.Name, m => m.ExclusivePercent, StringComparer.Ordinal);
        var now = after.Methods.ToDictionary(m => m.Name, m => m.ExclusivePercent, StringComparer.Ordinal);
        return [.. was.Keys.Union(now.Keys)
            .Select(m => (Method: m, Baseline: was.GetValueOrDefault(m), Candidate: now.GetValueOrDefault(m)))
            .Where(m => Math.Abs(m.Candidate - m.Baseline) >= SmallestMove)
            .OrderByDescending(m => Math.Abs(m.Candidate - m.Baseline)).ThenBy(m => m.Method, StringComparer.Ordinal)
            .Take(rows)];
    }

    /// <summary>The shift as lines for a terminal (none when either side has no trace).</summary>
    public static IEnumerable<string> Lines(RunGroup baseline, RunGroup candidate)
    {
        var shift = Of(baseline, candidate);
        if (shift.Count == 0)
        {
            yield break;
        }

        yield return "trace: methods whose share of the samples moved (self %, baseline → candidate; a method below a trace's top list counts 0):";
        foreach (var (method, was, now) in shift)
        {
            yield return string.Create(CultureInfo.InvariantCulture, $"  {was,5:0.0}% → {now,5:0.0}%  {now - was,+6:+0.0;-0.0}  {method}");
        }
    }
}

using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Load;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// The open model's load-bound verdict: a run whose achieved rate fell short of the requested by
/// more than <see cref="DefaultLoad.ShortfallLimit"/> says so, and which side could not keep up.
/// The load generator fell behind when its CPUs were at least <see cref="BottleneckRule.CpuLimit"/>%
/// busy, when its threads worked that share of the window rather than wait (<c>load/threads/busy</c>,
/// CPUs apart from the server's), or when most of the requests it sent late had a connection free for them (its thread, not
/// the pool, held them back: <c>http/requests/late/load</c>); else the server did (requests waited
/// for a free connection).
/// </summary>
internal static class OpenModelRule
{
    /// <summary>The sentence for a short run, or null when the rate was met or the run was closed-loop.</summary>
    public static string? Judge(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var m = document.Measurements;
        var names = OpenModelMeasures.Of(m);
        if (!m.TryGetValue(names.RateRequested.Name, out var requested) || !m.TryGetValue(names.Achieved, out var achieved)
            || achieved >= requested * (1 - DefaultLoad.ShortfallLimit))
        {
            return null;
        }

        var c = CultureInfo.InvariantCulture;
        var shortBy = string.Create(c,
            $"short of the requested rate: {achieved:n0} of {requested:n0} {names.Unit} ({(achieved - requested) / requested * 100:0.0}%), " +
            $"{m.GetValueOrDefault(names.Late.Name):n0} sent late, {m.GetValueOrDefault(names.Backlog.Name):n0} still waiting at the end");
        return LoadBehind(document, m, null) is { } why
            ? $"{shortBy}: the load generator could not keep up ({why})"
            : string.Create(c,
                $"{shortBy}: the server could not keep up (the load used {CpuPlacement.For(document).LoadBusy(m):0}% of its CPUs; " +
                $"requests waited for a free connection)");
    }

    /// <summary>
    /// Why the load generator, not the server, limited an open-model run judged on
    /// <paramref name="values"/> (a run's measurements or their medians), or null when it did not.
    /// With <paramref name="tailShare"/> (a latency target's share of requests above its
    /// percentile, 0.01 for p99) the load also fell behind when at least that share of the requests
    /// left late with a connection free: its own delay alone fills the tail. Without it, when most
    /// late requests had a connection free.
    /// </summary>
    public static string? LoadBehind(RunDocument document, IReadOnlyDictionary<string, double> values, double? tailShare)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(values);
        var names = OpenModelMeasures.Of(values);
        if (!values.ContainsKey(names.RateRequested.Name))
        {
            return null;
        }

        var c = CultureInfo.InvariantCulture;
        var placement = CpuPlacement.For(document);
        var busy = placement.LoadBusy(values);
        if (busy >= BottleneckRule.CpuLimit)
        {
            return string.Create(c, $"its CPUs were {busy:0}% busy");
        }

        if (values.TryGetValue(SystemMeasures.LoadThreadsBusy.Name, out var threadsBusy) && threadsBusy >= BottleneckRule.CpuLimit && !placement.Shared)
        {
            return string.Create(c, $"its threads worked {threadsBusy:0}% of the window, rarely waiting for the server; its CPUs were {busy:0}% busy");
        }

        var late = values.GetValueOrDefault(names.Late.Name);
        var byLoad = values.GetValueOrDefault(names.LateByLoad.Name);
        var sent = values.GetValueOrDefault(names.Completed);
        var behind = tailShare is { } tail ? sent > 0 && byLoad / sent >= tail : late > 0 && byLoad * 2 >= late;
        return behind
            ? string.Create(c,
                $"{byLoad:n0} of {sent:n0} requests left over {DefaultLoad.LateAfter.TotalMilliseconds:0} ms late with a connection free for them, " +
                $"{byLoad / Math.Max(1, sent) * 100:0.##}%; its CPUs were {busy:0}% busy")
            : null;
    }
}

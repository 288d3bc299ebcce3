using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Load;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The open model's load-bound verdict: a run whose achieved rate fell short of the requested by
/// more than <see cref="DefaultLoad.ShortfallLimit"/> says so, and which side could not keep up —
/// the load generator when its CPUs were at least <see cref="BottleneckRule.CpuLimit"/>% busy,
/// else the server (requests waited for a free connection).
/// </summary>
internal static class OpenModelRule
{
    /// <summary>The sentence for a short run, or null when the rate was met or the run was closed-loop.</summary>
    public static string? Judge(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var m = document.Measurements;
        var ws = m.ContainsKey(WebSocketMeasures.RateRequested.Name);
        var (requestedName, achievedName, lateName, backlogName, unit) = ws
            ? (WebSocketMeasures.RateRequested.Name, WebSocketMeasures.MessagesRate.Name, WebSocketMeasures.Late.Name, WebSocketMeasures.Backlog.Name, "msg/s")
            : (HttpMeasures.RateRequested.Name, HttpMeasures.RpsMean.Name, HttpMeasures.Late.Name, HttpMeasures.Backlog.Name, "req/s");
        if (!m.TryGetValue(requestedName, out var requested) || !m.TryGetValue(achievedName, out var achieved)
            || achieved >= requested * (1 - DefaultLoad.ShortfallLimit))
        {
            return null;
        }

        var cores = Math.Max(1, document.Environment.Cores);
        var loadCpus = BottleneckRule.Cpus(document.Parameters.GetValueOrDefault("load-cpus"), cores);
        var load = m.GetValueOrDefault(SystemMeasures.LoadUser.Name) + m.GetValueOrDefault(SystemMeasures.LoadKernel.Name);
        var loadBusy = load / (loadCpus.Count * 100.0 / cores) * 100;
        var c = CultureInfo.InvariantCulture;
        var shortBy = string.Create(c, $"short of the requested rate: {achieved:n0} of {requested:n0} {unit} ({(achieved - requested) / requested * 100:0.0}%), {m.GetValueOrDefault(lateName):n0} sent late, {m.GetValueOrDefault(backlogName):n0} still waiting at the end");
        return loadBusy >= BottleneckRule.CpuLimit
            ? string.Create(c, $"{shortBy}: the load generator could not keep up (its CPUs were {loadBusy:0}% busy)")
            : string.Create(c, $"{shortBy}: the server could not keep up (the load used {loadBusy:0}% of its CPUs; requests waited for a free connection)");
    }
}

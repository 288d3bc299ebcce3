using System.Globalization;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// Where and when a report's runs were measured, in one sentence for its head: the machines, their
/// OS and cores, the runtime and SDK, the commit of the tool, and the span of the runs with their
/// length. A value the runs differ in lists each (a report of mixed machines says so).
/// </summary>
internal static class ReportEnvironment
{
    public static string Describe(IReadOnlyCollection<RunDocument> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        if (runs.Count == 0)
        {
            return "no runs";
        }

        static string Each(IEnumerable<string?> values) =>
            string.Join(" / ", values.Where(v => !string.IsNullOrEmpty(v)).Distinct(StringComparer.Ordinal).DefaultIfEmpty("unknown"));
        var e = runs.Select(r => r.Environment).ToList();
        var first = runs.Min(r => r.StartedAt).UtcDateTime;
        var last = runs.Max(r => r.StartedAt).UtcDateTime;
        var span = first.Date == last.Date
            ? string.Create(CultureInfo.InvariantCulture, $"{first:yyyy-MM-dd HH:mm} to {last:HH:mm} UTC")
            : string.Create(CultureInfo.InvariantCulture, $"{first:yyyy-MM-dd HH:mm} to {last:yyyy-MM-dd HH:mm} UTC");
        var durations = runs.Select(r => r.DurationSeconds).ToList();
        var length = durations.Min() == durations.Max()
            ? string.Create(CultureInfo.InvariantCulture, $"{durations[0]:0.#} s each")
            : string.Create(CultureInfo.InvariantCulture, $"{durations.Min():0.#} to {durations.Max():0.#} s each");
        // Runs crank drove on several boxes name each (results import: crank/<job>/box).
        var boxes = runs.SelectMany(r => r.Parameters.Where(p => p.Key.StartsWith("crank/", StringComparison.Ordinal) && p.Key.EndsWith("/box",
            StringComparison.Ordinal))
            .Select(p => $"{p.Key["crank/".Length..^"/box".Length]} on {p.Value}")).Distinct(StringComparer.Ordinal).ToList();
        return $"Measured on {Each(e.Select(x => x.MachineName))}: {Each(e.Select(x => $"{x.Os} {x.OsVersion}".Trim()))}, " +
            $"{Each(e.Select(x => x.Architecture))}, "
            + $"{Each(e.Select(x => x.Cores.ToString(CultureInfo.InvariantCulture)))} cores; {Each(e.Select(x => x.Runtime))}, " +
                $"SDK {Each(e.Select(x => x.Sdk))}; "
            + (boxes.Count > 0 ? $"boxes: {string.Join("; ", boxes)}; " : "")
            + $"commit {Each(e.Select(x => x.GitCommit))}; {runs.Count} run{(runs.Count == 1 ? "" : "s")} from {span}, {length}.";
    }
}

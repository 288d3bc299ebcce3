using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Reports;

/// <summary>
/// Two sweeps compared cell by cell: the cells are matched on the values of the axes the baseline
/// sweep varies (server, proxy, connections, …), and each pair is compared like two groups of
/// runs (its iterations as samples), on the headline rate and p99.
/// </summary>
internal static class CellComparison
{
    private static readonly string[] s_rates = [.. MeasurementCatalog.WithRole(MeasurementRole.Headline).Select(m => m.Name)];

    private static readonly string[] s_p99 = [.. MeasurementCatalog.WithRole(MeasurementRole.TailLatency).Select(m => m.Name)];

    /// <summary>Writes a Markdown table, a row per cell of the baseline; cells the candidate lacks say so. Returns how many cells got worse significantly.</summary>
    public static int Write(TextWriter writer, RunGroup baseline, RunGroup candidate, ComparisonSettings settings)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var axes = MatrixAxis.Varying(baseline.Runs);
        if (axes.Count == 0)
        {
            throw new ArgumentException($"{baseline.Selector} varies in nothing: compare it as a group, without --by-cell");
        }

        string Key(RunDocument run) => string.Join(" | ", axes.Select(a => a.Read(run)));
        var runs = baseline.Runs.Concat(candidate.Runs).ToList();
        var rate = s_rates.FirstOrDefault(n => runs.Any(r => r.Measurements.ContainsKey(n)));
        var p99 = s_p99.FirstOrDefault(n => runs.Any(r => r.Measurements.ContainsKey(n)));
        string[] names = [.. new[] { rate, p99 }.OfType<string>()];
        writer.WriteLine($"| {string.Join(" | ", axes.Select(a => a.Name))} | {string.Join(" | ", names.Select(n => $"{n} baseline | candidate | change | verdict"))} |");
        writer.WriteLine($"|{string.Concat(Enumerable.Repeat("---|", axes.Count + (4 * names.Length)))}");
        var worse = 0;
        foreach (var cell in baseline.Runs.GroupBy(Key))
        {
            var matched = candidate.Runs.Where(r => Key(r) == cell.Key).ToList();
            if (matched.Count == 0)
            {
                writer.WriteLine($"| {cell.Key} | {string.Join(" | ", names.Select(_ => "| not in the candidate | |"))} |");
                continue;
            }

            var comparison = Comparison.Create(new RunGroup(baseline.Selector, [.. cell]), new RunGroup(candidate.Selector, matched), settings, names);
            var cells = names.Select(n => comparison.Rows.FirstOrDefault(r => r.Name == n) is { } row
                ? $"{ComparisonTextWriter.Number(row.BaselineMedian)} | {ComparisonTextWriter.Number(row.CandidateMedian)} | {ComparisonTextWriter.Change(row.ChangePercent)} | {ComparisonTextWriter.Mark(row)}"
                : "| | |");
            worse += comparison.Rows.Count(r => r.Verdict == ComparisonVerdict.Worse);
            writer.WriteLine($"| {cell.Key} | {string.Join(" | ", cells)} |");
        }

        return worse;
    }
}

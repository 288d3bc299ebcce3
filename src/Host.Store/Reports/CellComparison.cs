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

    /// <summary>
    /// Writes which side is which, then a row per cell of the baseline (cells the candidate lacks
    /// say so), as a terminal table or as Markdown, and the verdict line. Returns what it found.
    /// </summary>
    public static CellComparisonOutcome Write(TextWriter writer, RunGroup baseline, RunGroup candidate, ComparisonSettings settings, bool markdown)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var axes = MatrixAxis.Varying(baseline.Runs);
        if (axes.Count == 0)
        {
            throw new ArgumentException($"{baseline.Selector} varies in nothing: compare it as a group, without --by-cell");
        }

        IReadOnlyList<string> Key(RunDocument run) => [.. axes.Select(a => a.Read(run))];
        var runs = baseline.Runs.Concat(candidate.Runs).ToList();
        string[] names = [.. new[] { s_rates.FirstOrDefault(n => runs.Any(r => r.Measurements.ContainsKey(n))),
            s_p99.FirstOrDefault(n => runs.Any(r => r.Measurements.ContainsKey(n))) }.OfType<string>()];
        var headers = axes.Select(a => a.Name).Concat(names.SelectMany(n => new[] { $"{n} baseline", "candidate", "change", "verdict" })).ToList();
        var rows = new List<IReadOnlyList<string>>();
        int worse = 0, inconclusive = 0, missing = 0;
        string? firstInconclusive = null;
        foreach (var cell in baseline.Runs.GroupBy(r => string.Join('\n', Key(r))))
        {
            var values = Key(cell.First());
            var matched = candidate.Runs.Where(r => string.Join('\n', Key(r)) == cell.Key).ToList();
            if (matched.Count == 0)
            {
                missing++;
                rows.Add([.. values, "not in the candidate"]);
                continue;
            }

            var comparison = Comparison.Create(new RunGroup(baseline.Selector, [.. cell]), new RunGroup(candidate.Selector, matched), settings, names);
            var compared = names.Select(n => comparison.Rows.FirstOrDefault(r => r.Name == n)).ToList();
            worse += compared.Count(r => r?.Verdict == ComparisonVerdict.Worse);
            foreach (var row in compared.Where(r => r?.Verdict == ComparisonVerdict.Inconclusive))
            {
                inconclusive++;
                firstInconclusive ??= row!.Note;
            }

            rows.Add([.. values, .. compared.SelectMany(r => r is null ? ["", "", "", ""] : new[]
            {
                ComparisonTextWriter.Number(r.BaselineMedian), ComparisonTextWriter.Number(r.CandidateMedian), ComparisonTextWriter.Change(r.ChangePercent),
                ComparisonTextWriter.Word(r),
            })]);
        }

        var outcome = new CellComparisonOutcome(worse, inconclusive, missing, firstInconclusive);
        writer.WriteLine($"baseline:  {baseline.Describe()}");
        writer.WriteLine($"candidate: {candidate.Describe()}");
        if (markdown)
        {
            writer.WriteLine();
            writer.WriteLine($"| {string.Join(" | ", headers)} |");
            writer.WriteLine($"|{string.Concat(headers.Select((_, i) => i < axes.Count ? "---|" : "---:|"))}");
            foreach (var row in rows)
            {
                writer.WriteLine($"| {string.Join(" | ", row.Concat(Enumerable.Repeat("", Math.Max(0, headers.Count - row.Count))))} |");
            }

            writer.WriteLine();
        }
        else
        {
            PlainTable.Write(writer, headers, rows);
        }

        writer.WriteLine(outcome.Verdict);
        return outcome;
    }
}

using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// The same stacks on each operating system side by side, as the 2015 ASP.NET tables put them:
/// a row per combination of the other axes (scenario, server, proxy, connections, …), and per OS
/// the headline rate and how the server used the CPU. The latest succeeded run fills a cell.
/// </summary>
internal sealed record ParityTable(IReadOnlyList<string> Header, IReadOnlyList<IReadOnlyList<string>> Rows)
{
    /// <summary>The table, or null when the runs come from one OS.</summary>
    public static ParityTable? Of(IReadOnlyList<RunDocument> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var axes = MatrixAxis.Varying(runs);
        var os = axes.FirstOrDefault(a => a.Name == "os");
        if (os is null)
        {
            return null;
        }

        var others = axes.Where(a => a != os).ToList();
        var systems = runs.Select(os.Read).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
        var header = others.Select(a => a.Name).Concat(systems.SelectMany(s => new[] { $"{s} rate", $"{s} CPU" })).ToList();
        var rows = new List<IReadOnlyList<string>>();
        foreach (var group in runs.Where(r => r.Status == RunStatus.Succeeded).GroupBy(r => string.Join('\u001f', others.Select(a => a.Read(r))),
            StringComparer.Ordinal))
        {
            var row = others.Select(a => a.Read(group.First())).ToList();
            foreach (var system in systems)
            {
                var latest = group.Where(r => os.Read(r) == system).MaxBy(r => r.StartedAt);
                row.Add(latest is null ? "" : MatrixTable.Cells(latest)[0]);
                row.Add(latest is null ? "" : CpuModeSentence.Of(latest));
            }

            rows.Add(row);
        }

        return new ParityTable(header, rows);
    }

    public void WriteMarkdown(TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine($"| {string.Join(" | ", Header)} |");
        writer.WriteLine($"|{string.Concat(Enumerable.Repeat("---|", Header.Count))}");
        foreach (var row in Rows)
        {
            writer.WriteLine($"| {string.Join(" | ", row)} |");
        }
    }
}

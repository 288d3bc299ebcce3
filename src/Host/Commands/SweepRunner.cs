using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Commands;

/// <summary>
/// Runs a sweep: every cell is a full <c>run</c> (its own warm-up, verification and iterations),
/// stored as its own document labelled <c>sweep:ID</c>; a failing cell is recorded and the sweep
/// goes on; the end prints one table of all cells.
/// </summary>
internal static class SweepRunner
{
    public const string LabelPrefix = "sweep:";

    public static async Task<int> RunAsync(SweepPlan plan, CliConsole console, Func<string[], Task<int>> run)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(run);
        if (plan.Cells[0].Arguments.Contains("--json"))
        {
            return console.Fail(ExitCodes.Usage, "--json names one file, and a sweep stores a document per cell: leave it out and find them with 'results list --label sweep:ID'.");
        }

        var id = DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..4];
        var folder = Path.Combine(Path.GetTempPath(), "benchmarks-sweep-" + id);
        Directory.CreateDirectory(folder);
        var documents = new List<RunDocument?>();
        var progress = new SweepProgress(console, id, plan.Cells.Count);
        var failed = 0;
        try
        {
            for (var k = 0; k < plan.Cells.Count; k++)
            {
                var cell = plan.Cells[k];
                var describe = string.Join(", ", plan.Axes.Select(a => $"{a.Name} {cell.Values[a.Name]}"));
                progress.Cell(k, describe);
                var json = Path.Combine(folder, $"cell-{k + 1}.json");
                var exit = await run([.. cell.Arguments, "--label", LabelPrefix + id, "--json", json]);
                if (exit == ExitCodes.Usage && k == 0 && plan.Cells.Count > 1 && !plan.Axes.Any(a => a.Name is "server" or "scenario"))
                {
                    // A bad argument that no axis changes is the same in every cell: stop rather than repeat it.
                    return exit;
                }

                var document = File.Exists(json) ? RunDocumentJson.Deserialize(await File.ReadAllTextAsync(json)) : null;
                documents.Add(document);
                failed += document?.Status == RunStatus.Succeeded ? 0 : 1;
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }

        console.Out.WriteLine();
        console.Out.WriteLine($"Sweep {id}: {plan.Cells.Count} cells, {failed} failed (results list --label {LabelPrefix}{id})");
        var axes = plan.Axes.Select(a => a.Name).ToList();
        progress.Table(axes, [.. plan.Cells.Select((cell, i) => ((IReadOnlyList<string>)[.. axes.Select(a => cell.Values[a])], documents[i]))]);
        return failed == 0 ? ExitCodes.Success : ExitCodes.Failed;
    }
}

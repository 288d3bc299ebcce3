using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Sweeps;

/// <summary>
/// Runs a sweep: every cell is a full <c>run</c> (its own warm-up, verification and iterations),
/// stored as its own document labelled <c>sweep:ID</c>; a failing cell is recorded and the sweep
/// goes on; the end prints one table of all cells.
/// </summary>
internal static class SweepRunner
{
    public const string LabelPrefix = "sweep:";

    /// <summary>Hidden <c>run</c> option: check the arguments as the cell would, start nothing.</summary>
    public const string CheckOnlyOption = "--sweep-check";

    /// <summary>Hidden <c>run</c> option: a copy of the cell's document for the sweep's table, which keeps nothing.</summary>
    public const string DocumentOption = "--sweep-document";

    /// <param name="plan">The cells.</param>
    /// <param name="console">Where progress and the table go.</param>
    /// <param name="run">Runs one cell's arguments under the sweep's token; returns its exit code.</param>
    /// <param name="cancellationToken">Ctrl+C or SIGTERM: ends the cell under way (stored as interrupted) and the sweep with it.</param>
    public static async Task<int> RunAsync(SweepPlan plan, CliConsole console, Func<string[], CancellationToken, Task<int>> run,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(run);
        if (plan.Cells[0].Arguments.Contains("--json"))
        {
            return console.Fail(ExitCodes.Usage,
                "--json names one file, and a sweep stores a document per cell: leave it out and find them with 'results list --label sweep:ID'.");
        }

        // Every cell is checked before the first starts: a bad value in the last cell must not cost the run of the others.
        for (var k = 0; k < plan.Cells.Count; k++)
        {
            var check = await run([.. plan.Cells[k].Arguments, CheckOnlyOption], cancellationToken);
            if (check != ExitCodes.Success)
            {
                console.Error.WriteLine($"error: sweep cell {k + 1} of {plan.Cells.Count} ({Describe(plan, plan.Cells[k])}) cannot run; no cell was started.");
                return check;
            }
        }

        var id = DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..4];
        var folder = Platform.ScratchFolders.Create(Runs.RunWorkFolders.SweepPrefix);
        var documents = new List<RunDocument?>();
        var progress = new SweepProgress(console, id, plan.Cells.Count);
        var failed = 0;
        var notStored = 0;
        var missed = 0;
        try
        {
            for (var k = 0; k < plan.Cells.Count && !cancellationToken.IsCancellationRequested; k++)
            {
                var cell = plan.Cells[k];
                progress.Cell(k, Describe(plan, cell));
                var json = Path.Combine(folder, $"cell-{k + 1}.json");
                var exit = await run([.. cell.Arguments, "--label", LabelPrefix + id, DocumentOption, json], cancellationToken);
                var document = File.Exists(json) ? RunDocumentJson.Deserialize(await File.ReadAllTextAsync(json, CancellationToken.None)) : null;
                documents.Add(document);
                failed += document?.Status == RunStatus.Succeeded ? 0 : 1;
                notStored += exit == ExitCodes.NotStored ? 1 : 0;
                missed += exit == ExitCodes.TargetMissed ? 1 : 0;
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }

        console.Out.WriteLine();
        var interrupted = documents.Count < plan.Cells.Count || cancellationToken.IsCancellationRequested;
        var stopped = interrupted ? $"interrupted after {documents.Count} of {plan.Cells.Count} cells" : $"{plan.Cells.Count} cells";
        var unstored = notStored > 0 ? $", {notStored} not stored (see the errors above)" : "";
        var targets = missed > 0 ? $", {missed} missed the target" : "";
        console.Out.WriteLine($"Sweep {id}: {stopped}, {failed} failed{targets}{unstored} (results list --label {LabelPrefix}{id})");
        var axes = plan.Axes.Select(a => a.Name).ToList();
        progress.Table(axes,
            [.. plan.Cells.Take(documents.Count).Select((cell, i) => ((IReadOnlyList<string>)[.. axes.Select(a => cell.Values[a])], documents[i]))]);
        return notStored > 0
            ? ExitCodes.NotStored
            : cancellationToken.IsCancellationRequested
                ? ExitCodes.Interrupted
                : failed > 0 || interrupted ? ExitCodes.Failed : missed > 0 ? ExitCodes.TargetMissed : ExitCodes.Success;
    }

    private static string Describe(SweepPlan plan, SweepCell cell) => string.Join(", ", plan.Axes.Select(a => $"{a.Name} {cell.Values[a.Name]}"));
}

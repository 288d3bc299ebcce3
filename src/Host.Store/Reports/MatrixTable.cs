using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Reports;

/// <summary>
/// The table of a sweep (or of any runs that differ along a few axes), one row per run: the
/// axes' values, the headline rate (with its 95% interval when iterated), p99, errors, the
/// server's user/kernel split, the proxy's CPU, machine idle, the NIC, the status and the
/// one-line verdict. The same cells feed the Markdown table, the terminal table and the HTML
/// report, so every output computes a column the same way.
/// </summary>
internal static class MatrixTable
{
    /// <summary>The headline rates, the first a run has being its rate.</summary>
    public static IReadOnlyList<Measurement> Rates { get; } = MeasurementCatalog.WithRole(MeasurementRole.Headline);

    /// <summary>The p99 latencies, the first a run has being its p99.</summary>
    public static IReadOnlyList<Measurement> P99 { get; } = MeasurementCatalog.WithRole(MeasurementRole.TailLatency);

    private static readonly IReadOnlyList<Measurement> s_errors = MeasurementCatalog.WithRole(MeasurementRole.Failures);

    public static IReadOnlyList<string> Columns { get; } = ["rate", "per server CPU", "p99 ms", "errors", "server user / kernel %", "proxy %", "machine idle %",
        "net rx Mbit/s", "ready / first response ms", "alloc B/req", "GC pause %", "working set MB at rest / loaded", "private MB at rest / loaded", "status",
        "bound"];

    /// <summary>A run's cells under <see cref="Columns"/>; a cell that ran no document has only its status.</summary>
    public static IReadOnlyList<string> Cells(RunDocument? run)
    {
        if (run is null)
        {
            return ["", "", "", "", "", "", "", "", "", "", "", "", "", "no document", ""];
        }

        var c = CultureInfo.InvariantCulture;
        var m = run.Measurements;
        var rate = MeasurementCatalog.OwnOf(MeasurementRole.Headline, m);
        var rateText = rate is null ? ""
            : string.Create(c, $"{m[rate.Name]:n0} {rate.Unit}")
                + (run.Spread.TryGetValue(rate.Name, out var spread) ? string.Create(c, $" [{spread.CiLow:n0}, {spread.CiHigh:n0}]") : "");
        var p99 = MeasurementCatalog.OwnOf(MeasurementRole.TailLatency, m);
        var errors = s_errors.Where(e => m.ContainsKey(e.Name)).Sum(e => m[e.Name]);
        return
        [
            rateText,
            m.TryGetValue(EfficiencyMeasures.RatePerCpu.Name, out var perCpu) ? perCpu.ToString("n0", c) : "",
            p99 is null ? "" : m[p99.Name].ToString("0.00", c),
            errors.ToString("n0", c),
            m.TryGetValue(SystemMeasures.CpuUser.Name, out var user)
                ? string.Create(c, $"{user:0.0} / {m.GetValueOrDefault(SystemMeasures.CpuKernel.Name):0.0}")
                : "",
            m.TryGetValue(SystemMeasures.ProxyCpu.Name, out var proxy) ? proxy.ToString("0.0", c) : "",
            m.TryGetValue(SystemMeasures.MachineIdle.Name, out var idle) ? idle.ToString("0.0", c) : "",
            m.TryGetValue(SystemMeasures.NetRx.Name, out var rx) ? rx.ToString("0.0", c) : "",
            run.Parameters.ContainsKey("startup") && m.TryGetValue(SystemMeasures.StartTime.Name, out var ready)
                ? string.Create(c, $"{ready:n0} / {m.GetValueOrDefault(StartupMeasures.FirstResponse.Name):n0}")
                    + (run.Spread.TryGetValue(StartupMeasures.FirstResponse.Name, out var first) ? string.Create(c,
                        $" (median {first.Median:n0}, CV {first.CvPercent:0}%)") : "")
                : "",
            .. RuntimeCells(run),
            run.Status != RunStatus.Succeeded ? $"failed: {run.Error}"
                : Verdicts.OpenModelRule.Judge(run) is null ? "ok"
                : string.Create(c, $"short by {m.GetValueOrDefault(OpenModelMeasures.Of(m).RateShortfall.Name):0.#}%"),
            run.Bottleneck ?? "",
        ];
    }

    /// <summary>
    /// What the server's runtime cost, for a run that set the runtime (<see cref="Runs.RuntimeSettings"/>, or its version):
    /// bytes allocated per request, the share of time the GC paused the server, and its working set
    /// and private working set at rest and under load, the figures a GC flavour or a JIT setting moves; empty for other runs.
    /// </summary>
    private static string[] RuntimeCells(RunDocument run)
    {
        if (!Runs.RuntimeSettings.SetIn(run.Parameters))
        {
            return ["", "", "", ""];
        }

        var c = CultureInfo.InvariantCulture;
        var m = run.Measurements;
        return
        [
            m.TryGetValue(RuntimeMeasures.AllocatedPerRequest.Name, out var allocated) ? allocated.ToString("n0", c) : "",
            m.TryGetValue(RuntimeMeasures.GcPause.Name, out var pause) ? pause.ToString("0.00", c) : "",
            m.ContainsKey(StartupMeasures.WorkingSetAtRest.Name) || m.ContainsKey(SystemMeasures.WorkingSet.Name)
                ? $"{Megabytes(m, StartupMeasures.WorkingSetAtRest)} / {Megabytes(m, SystemMeasures.WorkingSet)}"
                : "",
            m.ContainsKey(StartupMeasures.PrivateWorkingSetAtRest.Name) || m.ContainsKey(SystemMeasures.PrivateWorkingSet.Name)
                ? $"{Megabytes(m, StartupMeasures.PrivateWorkingSetAtRest)} / {Megabytes(m, SystemMeasures.PrivateWorkingSet)}"
                : "",
        ];
    }

    private static string Megabytes(SortedDictionary<string, double> measurements, Measurement measurement) =>
        measurements.TryGetValue(measurement.Name, out var value) ? value.ToString("0", CultureInfo.InvariantCulture) : "-";

    /// <summary>Runs as a Markdown table over the axes they vary in.</summary>
    public static void WriteMarkdown(TextWriter writer, IReadOnlyList<RunDocument> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var axes = MatrixAxis.Varying(runs);
        WriteMarkdown(writer, [.. axes.Select(a => a.Name)], [.. runs.Select(r => ((IReadOnlyList<string>)[.. axes.Select(a => a.Read(r))], (RunDocument?)r))]);
    }

    /// <summary>Rows of axis values and their run (null when the cell stored none) as a Markdown table.</summary>
    public static void WriteMarkdown(TextWriter writer, IReadOnlyList<string> axes, IReadOnlyList<(IReadOnlyList<string> Values, RunDocument? Run)> rows)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(axes);
        ArgumentNullException.ThrowIfNull(rows);
        // A column no run fills (the proxy's, without a proxy) is left out.
        var cells = rows.Select(r => Cells(r.Run)).ToList();
        var shown = Filled(cells);
        writer.WriteLine($"| {string.Join(" | ", axes.Concat(shown.Select(i => Columns[i])))} |");
        writer.WriteLine($"|{string.Concat(Enumerable.Repeat("---|", axes.Count + shown.Count))}");
        for (var r = 0; r < rows.Count; r++)
        {
            writer.WriteLine($"| {string.Join(" | ", rows[r].Values.Concat(shown.Select(i => cells[r][i])).Select(Escape))} |");
        }
    }

    /// <summary>The columns (by index) that some run fills.</summary>
    public static IReadOnlyList<int> Filled(IReadOnlyList<IReadOnlyList<string>> cells) =>
        [.. Enumerable.Range(0, Columns.Count).Where(i => cells.Any(c => c[i].Length > 0))];

    private static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal).ReplaceLineEndings(" ");
}

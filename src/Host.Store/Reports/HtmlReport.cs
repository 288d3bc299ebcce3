using System.Globalization;
using System.Net;
using System.Text;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Reports;

/// <summary>Self-contained HTML reports (inline CSS and SVG; nothing fetched): a comparison, a history, or a sweep's matrix.</summary>
internal static class HtmlReport
{
    private static readonly string[] s_rates = [.. MatrixTable.Rates.Select(r => r.Name)];
    private static readonly string[] s_sides = ["baseline", "candidate"];
    private static readonly string[] s_sampleRates = [SystemMeasures.LoadRate.Name, WebSocketMeasures.MessagesRate.Name, ConnectMeasures.WebSocket.Rate.Name,
        TcpMeasures.ResponsesRate.Name];

    public static string Compare(Comparison comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var runs = comparison.Baseline.Runs.Select(r => (Run: r, Side: "baseline")).Concat(comparison.Candidate.Runs.Select(r => (Run: r,
            Side: "candidate"))).ToList();
        // Each run by its server and id: the colour says the side.
        var names = runs.Select(r => $"{r.Run.Server} {RunId.Short(r.Run.Id)}").ToList();
        var html = Open($"Comparison: {comparison.Candidate.Selector} vs {comparison.Baseline.Selector}");

        // The answer first: the verdict, then the sides and how they were compared.
        html.Append(Invariant($"<p class=\"verdict\"><b>{E(ComparisonTextWriter.Verdict(comparison))}</b></p>"));
        html.Append(Invariant($"<p class=\"sides\"><b>Baseline:</b> {E(comparison.Baseline.Describe())}<br><b>Candidate:</b> "));
        html.Append(Invariant($"{E(comparison.Candidate.Describe())}</p>"));
        html.Append(Invariant($"<p class=\"environment\">{E(ReportEnvironment.Describe([.. runs.Select(r => r.Run)]))}</p>"));
        html.Append(Invariant($"<p class=\"settings\">Medians per side. Significant when the two-sided Mann–Whitney p &lt; {comparison.Settings.Alpha}, the "));
        html.Append(Invariant($"change is at least {comparison.Settings.ThresholdPercent}% and above the unit's noise floor; inconclusive when the sides "));
        html.Append(Invariant($"are too small ever to reach it; the interval of the change is Hodges–Lehmann's.</p>"));
        // The short table (what changed, then the headline), then every row on request.
        AppendComparisonTable(html, comparison, ComparisonTextWriter.Shown(comparison, detail: false), "comparison", ComparisonTextWriter.Word);
        html.Append(Invariant($"<details><summary>All {comparison.Rows.Count} measurements, each with its note</summary>"));
        AppendComparisonTable(html, comparison, ComparisonTextWriter.Shown(comparison, detail: true), "comparison-all", ComparisonTextWriter.Mark);
        html.Append("</details>");
        string Color(int i) => runs[i].Side == "baseline" ? "#4e79a7" : "#f28e2b";
        if (s_rates.FirstOrDefault(n => runs.Any(r => r.Run.Measurements.ContainsKey(n))) is { } rate)
        {
            html.Append("<h2>Throughput per run</h2>");
            html.Append(SvgChart.Bars($"{rate} per run", Comparison.Info(runs.Select(r => r.Run), rate).Unit, names,
                [.. s_sides.Select(side => (side, (IReadOnlyList<double>)[.. runs.Select(r => r.Side == side ? Get(r.Run, rate) : 0)],
                    side == "baseline" ? "#4e79a7" : "#f28e2b"))], stacked: true));
        }

        // Every run (or iteration) of each side as a point: what the medians and the test were computed from.
        var spread = new[] { s_rates.FirstOrDefault(n => runs.Any(r => r.Run.Measurements.ContainsKey(n))) }.Concat(MatrixTable.P99.Select(m => m.Name))
            .Where(n => n is not null && comparison.Rows.Any(r => r.Name == n)).ToList();
        if (spread.Count > 0)
        {
            html.Append("<h2>Distribution per side</h2>");
            foreach (var name in spread)
            {
                html.Append(SvgChart.Points($"{name}: every sample, median as a line", Comparison.Info(runs.Select(r => r.Run), name!).Unit,
                    [("baseline", Comparison.Values(comparison.Baseline, name!), "#4e79a7"), ("candidate", Comparison.Values(comparison.Candidate, name!),
                        "#f28e2b")]));
            }
        }

        // Per-second samples of the first run of each side.
        AppendRunCharts(html, runs.Select(r => r.Run).ToList(), names, Color, [0, comparison.Baseline.Runs.Count]);
        return Close(html);
    }

    /// <summary>Each run by its start, in the shortest form that tells them apart: day and minute, else with seconds, else with its position.</summary>
    private static List<string> StartLabels(IReadOnlyList<DateTime> starts)
    {
        foreach (var format in new[] { "MM-dd HH:mm", "MM-dd HH:mm:ss" })
        {
            var labels = starts.Select(t => t.ToString(format, CultureInfo.InvariantCulture)).ToList();
            if (labels.Distinct(StringComparer.Ordinal).Count() == labels.Count)
            {
                return labels;
            }
        }

        return [.. starts.Select((t, i) => string.Create(CultureInfo.InvariantCulture, $"{t:MM-dd HH:mm:ss} #{i + 1}"))];
    }

    private static void AppendComparisonTable(StringBuilder html, Comparison comparison, IReadOnlyList<ComparisonRow> rows, string id,
        Func<ComparisonRow, string> verdict)
    {
        html.Append(Invariant($"<table id=\"{id}\"><thead><tr><th>measurement</th><th>baseline</th><th>candidate</th><th>change</th>"));
        html.Append(Invariant($"<th>{E(ComparisonTextWriter.Interval(comparison))}</th><th>p</th><th>verdict</th></tr></thead><tbody>"));
        foreach (var row in rows)
        {
            html.Append(Invariant($"<tr class=\"{row.Verdict.ToString().ToLowerInvariant()}\"><td><code>{E(row.Name)}</code></td>"));
            html.Append(Invariant($"<td>{ComparisonTextWriter.Number(row.BaselineMedian)}</td><td>{ComparisonTextWriter.Number(row.CandidateMedian)}</td>"));
            html.Append(Invariant($"<td>{ComparisonTextWriter.Change(row.ChangePercent)}</td><td>{E(ComparisonTextWriter.Range(row))}</td>"));
            html.Append(Invariant($"<td>{ComparisonTextWriter.P(row.PValue)}</td><td>{E(verdict(row))}</td></tr>"));
        }

        html.Append("</tbody></table>");
    }

    public static string History(string title, string measurement, string unit, IReadOnlyList<HistoryPoint> points, double sigmas = 2, int window = 7)
    {
        ArgumentNullException.ThrowIfNull(points);
        var html = Open(title);
        var names = StartLabels(points.Select(p => p.Run.StartedAt.UtcDateTime).ToList());

        // The answer first: what was flagged, or where the latest run stands.
        var flagged = points.Where(p => p.Flagged).ToList();
        var latest = points.Count == 0 ? null : points[^1];
        var answer = flagged.Count > 0
            ? $"{flagged.Count} result(s) flagged, the last from run {RunId.Short(flagged[^1].Run.Id)} " +
                $"({flagged[^1].Run.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm}): {flagged[^1].Direction}, " +
                $"{ComparisonTextWriter.Number(flagged[^1].Value)} {unit} outside its band."
            : latest is null ? "No run."
            : latest.BandLow is { } bandLow && latest.BandHigh is { } bandHigh
                ? $"No result flagged: the latest run, {ComparisonTextWriter.Number(latest.Value)} {unit}, is {(latest.Outside ? "outside" : "inside")} " +
                    $"its band ({ComparisonTextWriter.Number(bandLow)} – {ComparisonTextWriter.Number(bandHigh)} {unit})."
                : $"No result flagged: too few runs for a band ({points.Count}; a band needs {window} before it).";
        html.Append(Invariant($"<p class=\"answer\"><b>{E(answer)}</b></p>"));
        html.Append(Invariant($"<p class=\"environment\">{E(ReportEnvironment.Describe([.. points.Select(p => p.Run)]))}</p>"));
        var banded = points.Any(p => p.BandLow is not null);
        html.Append(Invariant($"<p class=\"settings\">{points.Count} runs of <code>{E(measurement)}</code>; "));
        html.Append(Invariant($"the band is mean ± {sigmas.ToString(CultureInfo.InvariantCulture)}σ of the {window} runs before "));
        html.Append("(before the first of the runs in a row a run is judged with); red points are flagged.");
        if (points.Any(p => p.BandLow is null))
        {
            html.Append(Invariant($" No band for the first {Math.Min(points.Count, window)} run(s): a band needs {window} runs before it."));
        }

        html.Append("</p>");
        html.Append(SvgChart.Lines($"{measurement} by run", unit, "run (UTC start)", [.. points.Select((_, i) => (double)i)],
            [(measurement, [.. points.Select(p => p.Value)], SvgChart.Palette[0])],
            banded
                ? [.. points.Select(p => (p.BandLow ?? double.NaN, p.BandHigh ?? double.NaN))]
                : null, [.. points.Select(p => p.Flagged)], names, bandName: banded
                    ? Invariant($"band: mean ± {sigmas.ToString(CultureInfo.InvariantCulture)}σ of the {window} runs before")
                    : null));
        html.Append("<table id=\"history\"><thead><tr><th>started " +
            "(UTC)</th><th>run</th><th>value</th><th>band</th><th>flag</th><th>labels</th></tr></thead><tbody>");
        foreach (var p in points)
        {
            var band = p.BandLow is { } low && p.BandHigh is { } high ? $"{ComparisonTextWriter.Number(low)} – {ComparisonTextWriter.Number(high)}" : "";
            html.Append(Invariant($"<tr class=\"{(p.Flagged ? "flagged" : p.Outside ? "outside" : "")}\">"));
            html.Append(Invariant($"<td>{p.Run.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm:ss}</td><td><code>{E(p.Run.Id)}</code></td>"));
            html.Append(Invariant($"<td>{ComparisonTextWriter.Number(p.Value)}</td><td>{band}</td>"));
            html.Append(Invariant($"<td>{E(p.Flagged ? p.Direction ?? "flagged" : p.Outside ? "outside" : "")}</td>"));
            html.Append(Invariant($"<td>{E(string.Join(", ", p.Run.Labels))}</td></tr>"));
        }

        html.Append("</tbody></table>");
        var runs = points.Select(p => p.Run).ToList();
        // Per-second samples of the latest run.
        AppendRunCharts(html, runs, names, i => SvgChart.Palette[0], [runs.Count - 1]);
        return Close(html);
    }

    /// <summary>
    /// <c>regressions --html</c>: the answer in words at the top (the open regressions, what
    /// changed, how sure), then every series: its headline by run with the level between changes
    /// drawn as a step and the first run after each change marked, and a chart for every other
    /// measurement that changed.
    /// </summary>
    public static string Regressions(RegressionReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var html = Open("Regressions");
        var open = report.Open;
        var conclusion = open.Count == 0
            ? $"No open regression in {report.Series.Count} series."
            : $"{open.Count} open regression{(open.Count == 1 ? "" : "s")} in {report.Series.Count} series: " + string.Join("; ", open.Select(c =>
                $"{c.Series.Scenario} on {c.Series.Server} {c.Measurement} {c.Point.Change.ToString("+0.0%;-0.0%", CultureInfo.InvariantCulture)} " +
                $"from run {RunId.Short(c.FirstAfter.Id)} ({c.FirstAfter.StartedAt.UtcDateTime:yyyy-MM-dd}), p {RegressionReport.P(c.Point.PValue)}, " +
                $"what changed: {c.WhatChanged}")) + ".";
        html.Append(Invariant($"<p class=\"conclusion\"><strong>{E(conclusion)}</strong></p>"));
        if (report.Stopped.Count > 0)
        {
            var stopped = report.Stopped.Select(s => $"{s.Scenario} on {s.Server} ({s.Shape}), last run {s.Last.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm}");
            html.Append(Invariant($"<p class=\"stopped\">Stopped (no run for twice the usual interval): {E(string.Join("; ", stopped))}.</p>"));
        }

        html.Append(Invariant($"<p class=\"settings\">{E(report.Method)}.</p>"));
        foreach (var series in report.Series)
        {
            html.Append(Invariant($"<h2>{E(series.Scenario)} on {E(series.Server)}</h2><p class=\"series\"><code>{series.Id}</code> {E(series.Shape)}; "));
            html.Append(Invariant($"{series.Runs.Count} runs, the last {series.Last.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm}.</p>"));
            var changed = report.Changes.Where(c => c.Series == series).ToList();
            var names = SeriesChanges.Followed(series).Take(1).Concat(changed.Select(c => c.Measurement)).Distinct(StringComparer.Ordinal);
            foreach (var name in names)
            {
                var runs = SeriesChanges.Having(series, name);
                var mine = changed.Where(c => c.Measurement == name).OrderBy(c => c.FirstAfter.StartedAt).ToList();
                var starts = mine.Select(c => runs.ToList().IndexOf(c.FirstAfter)).ToHashSet();
                var level = new double[runs.Count];
                var boundaries = starts.Order().Prepend(0).Append(runs.Count).ToList();
                for (var k = 0; k + 1 < boundaries.Count; k++)
                {
                    var mean = runs.Skip(boundaries[k]).Take(boundaries[k + 1] - boundaries[k]).Average(r => r.Measurements[name]);
                    Array.Fill(level, mean, boundaries[k], boundaries[k + 1] - boundaries[k]);
                }

                var info = Comparison.Info(runs, name);
                var changes = mine.Select(c =>
                    $"; {c.Point.Change.ToString("+0.0%;-0.0%", CultureInfo.InvariantCulture)} {c.Direction} from {RunId.Short(c.FirstAfter.Id)}");
                html.Append(SvgChart.Lines($"{name} by run{(mine.Count == 0 ? ": no change" : string.Concat(changes))}", info.Unit, "run (UTC start)",
                    [.. runs.Select((_, i) => (double)i)],
                    [(name, [.. runs.Select(r => r.Measurements[name])], SvgChart.Palette[0]), ("level between changes", level, SvgChart.Palette[1])],
                    marked: [.. runs.Select((_, i) => starts.Contains(i))], xNames: StartLabels([.. runs.Select(r => r.StartedAt.UtcDateTime)])));
            }
        }

        html.Append("<table id=\"changes\"><thead><tr><th>series</th><th>measurement</th><th>change</th><th>from run</th><th>before → " +
            "after</th><th>p</th><th>recovered</th><th>what changed</th></tr></thead><tbody>");
        foreach (var c in report.Changes)
        {
            html.Append(Invariant($"<tr class=\"{(c.IsRegression && c.RecoveredBy is null ? "worse" : c.IsRegression ? "changed" : "better")}\">"));
            html.Append(Invariant($"<td>{E(c.Series.Scenario)} on {E(c.Series.Server)}</td><td><code>{E(c.Measurement)}</code></td>"));
            html.Append(Invariant($"<td>{c.Point.Change.ToString("+0.0%;-0.0%", CultureInfo.InvariantCulture)} {E(c.Direction)}</td><td>"));
            html.Append(Invariant($"<code>{RunId.Short(c.FirstAfter.Id)}</code></td><td>{ComparisonTextWriter.Number(c.Point.Before)} → "));
            html.Append(Invariant($"{ComparisonTextWriter.Number(c.Point.After)} {E(c.Info.Unit)}</td><td>{E(RegressionReport.P(c.Point.PValue))}</td>"));
            html.Append(Invariant($"<td>{(c.RecoveredBy is { } back ? RunId.Short(back.Id) : "")}</td><td>{E(c.WhatChanged)}</td></tr>"));
        }

        html.Append("</tbody></table>");
        return Close(html);
    }

    /// <summary>
    /// A sweep (or any set of runs that differ along a few axes): a row per run, and per headline
    /// measurement a chart of it against the numeric axis (connections, else pipeline; else the
    /// runs in order), one line per combination of the other axes (server / proxy / OS).
    /// </summary>
    public static string Matrix(string title, IReadOnlyList<RunDocument> runs)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var html = Open(title);
        var axes = MatrixAxis.Varying(runs);
        var x = axes.LastOrDefault(a => a.Numeric);
        var grouping = axes.Where(a => a != x).ToList();
        string Series(RunDocument r) => grouping.Count == 0 ? "runs" : string.Join(" / ", grouping.Select(a => a.Read(r)));
        var varying = axes.Count == 0 ? "nothing varies between them (the same settings, repeated)" : $"varying: {string.Join(", ", axes.Select(a => a.Name))}";
        html.Append(Invariant($"<p class=\"settings\">{runs.Count} runs; {E(varying)}.</p>"));
        html.Append(Invariant($"<p class=\"environment\">{E(ReportEnvironment.Describe(runs))}</p>"));
        if (x?.Name == "requested rate" && Answer(runs, x) is { } answer)
        {
            html.Append(Invariant($"<p class=\"answer\"><b>{E(answer)}</b></p>"));
        }
        else if (axes.Count > 0 && Extremes(runs, axes, s_rates.FirstOrDefault(n => runs.Any(r => r.Measurements.ContainsKey(n)))) is { } extremes)
        {
            html.Append(Invariant($"<p class=\"answer\"><b>{E(extremes)}</b></p>"));
        }

        // The verdict is a sentence: the table shows its first clause, the list under it the whole.
        var cells = runs.Select(MatrixTable.Cells).ToList();
        var shown = MatrixTable.Filled(cells);
        var bound = MatrixTable.Columns.Count - 1;
        html.Append("<table id=\"matrix\"><thead><tr>");
        foreach (var name in axes.Select(a => a.Name).Concat(shown.Select(i => MatrixTable.Columns[i])))
        {
            html.Append(Invariant($"<th>{E(name)}</th>"));
        }

        html.Append("</tr></thead><tbody>");
        var rate = s_rates.FirstOrDefault(n => runs.Any(r => r.Measurements.ContainsKey(n)));
        var p99 = MatrixTable.P99.Select(p => p.Name).FirstOrDefault(n => runs.Any(r => r.Measurements.ContainsKey(n)));
        for (var r = 0; r < runs.Count; r++)
        {
            html.Append("<tr>");
            foreach (var cell in axes.Select(a => AxisValue(a.Read(runs[r]))).Concat(shown.Select(i => i == bound ? cells[r][i].Split(':')[0] : cells[r][i])))
            {
                html.Append(Invariant($"<td>{E(cell)}</td>"));
            }

            html.Append("</tr>");
        }

        html.Append("</tbody></table>");
        if (shown.Contains(bound))
        {
            html.Append("<ul class=\"verdicts\">");
            for (var r = 0; r < runs.Count; r++)
            {
                if (cells[r][bound].Length > 0)
                {
                    html.Append(Invariant($"<li><b>{E(string.Join(", ", axes.Select(a => a.Read(runs[r]))))}</b>: {E(cells[r][bound])}</li>"));
                }
            }

            html.Append("</ul>");
        }

        if (ParityTable.Of(runs) is { } parity)
        {
            html.Append("<h2>Operating systems side by side</h2><table id=\"parity\"><thead><tr>");
            foreach (var column in parity.Header)
            {
                html.Append(Invariant($"<th>{E(column)}</th>"));
            }

            html.Append("</tr></thead><tbody>");
            foreach (var row in parity.Rows)
            {
                html.Append("<tr>").AppendJoin("", row.Select(cell => Invariant($"<td>{E(cell)}</td>"))).Append("</tr>");
            }

            html.Append("</tbody></table>");
        }

        // A value run twice (a search confirming a miss) is drawn from its last run, not zigzagging between both.
        var xs = x is null ? [.. runs.Select((_, i) => (double)i)] : runs.Select(x.Number).Where(double.IsFinite).Distinct().Order().ToList();
        var groups = runs.Select((r, i) => (Run: r, Index: i)).GroupBy(p => Series(p.Run)).ToList();
        foreach (var name in new[] { rate, p99, SystemMeasures.CpuMean.Name }.Where(n => n is not null && runs.Any(r => r.Measurements.ContainsKey(n))))
        {
            var series = groups.Select((g, k) => (g.Key,
                (IReadOnlyList<double>)[.. xs.Select(v => g.LastOrDefault(p => (x is null ? p.Index : x.Number(p.Run)) == v).Run is { } found
                    && found.Status == RunStatus.Succeeded ? Get(found, name!) : double.NaN)],
                SvgChart.Palette[k % SvgChart.Palette.Length])).ToList();
            // Without a numeric axis: the cells side by side as bars (servers, proxies, systems), each the
            // mean of its runs; when nothing varies, the repeated runs in order, each named by its start.
            var unit = Comparison.Info(runs, name!).Unit;
            html.Append(x is not null ? SvgChart.Lines($"{name} by {x.Name}", unit, x.Name, xs, series)
                : grouping.Count > 0 ? SvgChart.Bars(
                    $"{name} by {string.Join(" / ", grouping.Select(a => a.Name))} (each the mean of its runs, {unit})", unit, [.. groups.Select(g => g.Key)],
                    [(name!,
                        [.. groups.Select(g => g.Select(p => p.Run).Where(r => r.Status == RunStatus.Succeeded
                            && r.Measurements.ContainsKey(name!)).Select(r => r.Measurements[name!]).DefaultIfEmpty(double.NaN).Average())],
                        SvgChart.Palette[0])], stacked: false)
                : SvgChart.Lines($"{name} by run", unit, "run (UTC start)", xs, series, xNames: StartLabels([.. runs.Select(r => r.StartedAt.UtcDateTime)])));
        }

        if (x?.Name == "requested rate" && groups.Count == 1)
        {
            html.Append(LatencyByRate(runs, x, xs));
        }

        return Close(html);
    }

    /// <summary>
    /// The page's answer in words: which cell was highest on the rate and which lowest, by how much
    /// (each cell the mean of its succeeded runs).
    /// </summary>
    private static string? Extremes(IReadOnlyList<RunDocument> runs, IReadOnlyList<MatrixAxis> axes, string? rate)
    {
        if (rate is null)
        {
            return null;
        }

        var cells = runs.Where(r => r.Status == RunStatus.Succeeded && r.Measurements.ContainsKey(rate))
            .GroupBy(r => string.Join(", ", axes.Select(a => $"{a.Name} {a.Read(r)}")))
            .Select(g => (Cell: g.Key, Value: g.Average(r => r.Measurements[rate])))
            .OrderByDescending(c => c.Value).ToList();
        if (cells.Count < 2)
        {
            return null;
        }

        var unit = Comparison.Info(runs, rate).Unit;
        var (high, low) = (cells[0], cells[^1]);
        var apart = low.Value > 0 ? Invariant($", {high.Value / low.Value:0.00}× apart") : "";
        return $"Highest {rate}: {high.Cell} ({ComparisonTextWriter.Number(high.Value)} {unit}); " +
            $"lowest: {low.Cell} ({ComparisonTextWriter.Number(low.Value)} {unit}){apart}.";
    }

    /// <summary>An axis's value as the table shows it: a number of thousands with its separators (10,000), anything else as it is.</summary>
    private static string AxisValue(string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) && Math.Abs(number) >= 1000
            ? ComparisonTextWriter.Number(number)
            : value;

    /// <summary>
    /// A search's answer (<c>--find-max</c>, <c>--rate-steps</c> with a target): the highest requested
    /// rate whose run met the target, or that none did; null without a target.
    /// </summary>
    private static string? Answer(IReadOnlyList<RunDocument> runs, MatrixAxis rate)
    {
        if (runs.Select(r => r.Parameters.GetValueOrDefault("slo")).FirstOrDefault(s => s is not null) is not { } slo)
        {
            return null;
        }

        var target = Runs.ServiceLevel.Parse(slo);
        var met = runs.Where(r => r.Status == RunStatus.Succeeded && target.Check(r).Met).Select(rate.Number).Where(double.IsFinite).ToList();
        return met.Count == 0
            ? $"No requested rate met {slo}."
            : $"The highest requested rate that met {slo}: {ComparisonTextWriter.Number(met.Max())}/s ({met.Count} of {runs.Count} runs met it).";
    }

    /// <summary>
    /// The open model's picture: each latency percentile (from the due time) against the requested
    /// rate — flat, then the knee where the server stops keeping up — with the target's limits as
    /// flat lines when the runs were checked against one (<c>--slo</c>, <c>--find-max</c>).
    /// </summary>
    private static string LatencyByRate(IReadOnlyList<RunDocument> runs, MatrixAxis rate, IReadOnlyList<double> rates)
    {
        var family = runs.Select(r => LatencyMeasures.Of(r.Measurements)).FirstOrDefault(f => f is not null) ?? LatencyMeasures.Http;
        var percentiles = family.Percentiles.Where(p => p.Percentile is 50 or 90 or 99 or 99.9).ToList();
        var series = percentiles.Select((p, k) => ($"p{p.Percentile.ToString(CultureInfo.InvariantCulture)}",
            (IReadOnlyList<double>)[.. rates.Select(v => runs.LastOrDefault(r => rate.Number(r) == v && r.Status == RunStatus.Succeeded) is { } found ? Get(
                found, p.Measurement.Name) : double.NaN)],
            SvgChart.Palette[k % SvgChart.Palette.Length])).ToList();
        if (runs.Select(r => r.Parameters.GetValueOrDefault("slo")).FirstOrDefault(s => s is not null) is { } slo)
        {
            foreach (var term in Runs.ServiceLevel.Parse(slo).Terms.Where(t => t.Latency is not null))
            {
                series.Add(($"target {term.Text}", [.. rates.Select(_ => term.Limit)], "#999999"));
            }
        }

        return "<h2>Latency against rate</h2>"
            + SvgChart.Lines($"{family.Prefix}/NN (from the due time) by requested rate", "ms", "rate", rates, series, logScale: true);
    }

    private static void AppendRunCharts(StringBuilder html, List<RunDocument> runs, List<string> names, Func<int, string> color,
        IReadOnlyCollection<int> sampledRuns)
    {
        if (runs.Select(r => LatencyMeasures.Of(r.Measurements)).FirstOrDefault(f => f is not null) is { } family)
        {
            var set = family.Percentiles;
            var percentiles = set.Where(p => runs.Any(r => r.Measurements.ContainsKey(p.Measurement.Name))).ToList();
            html.Append("<h2>Latency percentiles</h2>");
            html.Append(SvgChart.Lines($"{family.Prefix}/NN per run", "ms", "percentile", [.. percentiles.Select(p => p.Percentile)],
                [.. runs.Select((r, i) => (names[i], (IReadOnlyList<double>)[.. percentiles.Select(p => Get(r, p.Measurement.Name))],
                    runs.Count <= SvgChart.Palette.Length ? SvgChart.Palette[i % SvgChart.Palette.Length] : color(i)))],
                xNames: [.. percentiles.Select(p => "p" + p.Percentile.ToString(System.Globalization.CultureInfo.InvariantCulture))]));
        }

        if (runs.Any(r => r.Measurements.ContainsKey(SystemMeasures.CpuUser.Name)))
        {
            html.Append("<h2>Server CPU, user and kernel</h2>");
            html.Append(SvgChart.Bars("benchmarks/cpu/user + benchmarks/cpu/kernel (% of the machine)", "%", names,
                [("user", [.. runs.Select(r => Get(r, SystemMeasures.CpuUser.Name))], "#59a14f"), ("kernel",
                    [.. runs.Select(r => Get(r, SystemMeasures.CpuKernel.Name))], "#e15759")], stacked: true));
        }

        if (runs.Any(r => r.Measurements.ContainsKey(SystemMeasures.Utilization.Name)))
        {
            html.Append("<h2>Network</h2>");
            html.Append(SvgChart.Bars("net/utilization (% of the link)", "%", names,
                [("utilization", [.. runs.Select(r => Get(r, SystemMeasures.Utilization.Name))], "#76b7b2")], stacked: false));
        }
        else if (runs.Any(r => r.Measurements.ContainsKey(SystemMeasures.NetRx.Name)))
        {
            html.Append("<h2>Network</h2><p>No link speed known for the interface (loopback or virtual): throughput is shown instead of utilization.</p>");
            html.Append(SvgChart.Bars("net/rx and net/tx (Mbit/s)", "Mbit/s", names,
                [("rx", [.. runs.Select(r => Get(r, SystemMeasures.NetRx.Name))], "#76b7b2"), ("tx", [.. runs.Select(r => Get(r, SystemMeasures.NetTx.Name))],
                    "#b07aa1")], stacked: false));
        }

        var sampled = runs.Select((r, i) => (Run: r, Index: i,
            Key: s_sampleRates.FirstOrDefault(k => r.Samples.Any(s => s.Values.ContainsKey(k))))).Where(r => r.Key is not null
                && sampledRuns.Contains(r.Index)).ToList();
        if (sampled.Count > 0)
        {
            html.Append("<h2>Per-second samples</h2>");
            foreach (var (run, index, key) in sampled)
            {
                var samples = run.Samples.Where(s => s.Values.ContainsKey(key!)).ToList();
                html.Append(SvgChart.Lines($"{key} each second, run {names[index]}", Comparison.Info([run],
                    key!).Unit, "seconds into the measured window", [.. samples.Select(s => s.Time)],
                    [(key!, [.. samples.Select(s => s.Values[key!])], color(index))]));
            }
        }
    }

    private static double Get(RunDocument run, string name) => run.Measurements.TryGetValue(name, out var value) ? value : double.NaN;

    private static StringBuilder Open(string title)
    {
        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>").Append(E(title)).Append("</title><style>");
        html.Append("body{font-family:system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid " +
            "#ccc;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}");
        html.Append("tr.better td{background:#e3f5e1}tr.worse td{background:#fbe3e3}tr.changed td{background:#fff6d6}tr.flagged " +
            "td{background:#fbe3e3}tr.outside td{background:#fff6d6}svg.chart{display:block;margin:8px 0 24px;width:100%;max-width:1100px;height:auto}");
        html.Append("</style></head><body><h1>").Append(E(title)).Append("</h1>");
        return html;
    }

    private static string Close(StringBuilder html) =>
        html.Append(Invariant($"<footer><small>benchmarks, {DateTimeOffset.UtcNow:yyyy-MM-dd HH:mm} UTC</small></footer></body></html>")).ToString();

    private static string E(string text) => WebUtility.HtmlEncode(text);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}

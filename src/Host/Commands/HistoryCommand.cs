using System.CommandLine;
using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Reports;
using Benchmarks.Host.Store;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>benchmarks history</c> (the series and its regression check; exit 1 when a result is flagged) and
/// <c>benchmarks report --html</c> (the same series as an HTML report).
/// </summary>
internal static class HistoryCommand
{
    public static Command History(CliConsole console) => Create(console, "history",
        "Show a measurement's series for a scenario and server, and flag results that leave the band of the runs before (exit 1 when any is flagged).",
        htmlRequired: false);

    public static Command Report(CliConsole console) => Create(console, "report",
        "Write a self-contained HTML report with charts (--html) or a Markdown table (--markdown): of a sweep or a label's runs against the axes they vary " +
        "in, or the history of a scenario and server.", htmlRequired: false);

    private static Command Create(CliConsole console, string name, string description, bool htmlRequired)
    {
        var markdown = new Option<string?>("--markdown") { Description = "Write the runs' table (and the OS side-by-side table when they come from several) " +
            "as Markdown to this file, or '-' for the output: of a sweep or a label's runs." };
        var stores = new StoreOptionSet();
        var filters = new RunFilterOptionSet();
        var measurement = new Option<string?>("--measurement", "-m") { Description = "The measurement to follow (default: " +
            "the headline rate of the latest run: http/rps/mean, ws/messages/rate, tcp/responses/rate, …)." };
        var window = new Option<int>("--window") { Description = "Runs before a result that make its band.", DefaultValueFactory = _ => 7 };
        var sigma = new Option<double>("--sigma") { Description = "Band half-width in standard deviations.", DefaultValueFactory = _ => 2 };
        var consecutive = new Option<int>("--consecutive") { Description = "Results in a row outside the band before one is flagged.",
            DefaultValueFactory = _ => 2 };
        var html = new Option<FileInfo?>("--html") { Description = "Write a self-contained HTML report.", Required = htmlRequired };
        var command = new Command(name, description) { measurement, window, sigma, consecutive, html };
        if (name == "report")
        {
            command.Options.Add(markdown);
        }

        foreach (var option in stores.All.Concat(filters.All))
        {
            command.Options.Add(option);
        }

        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            if (name == "report" && result.GetValue(html) is null && result.GetValue(markdown) is null)
            {
                throw new ArgumentException("report writes --html FILE or --markdown FILE (or '-' for the output).");
            }

            var sweep = result.GetValue(filters.Sweep);
            var label = result.GetValue(filters.Label);
            if (name == "report" && (sweep ?? label) is { } set && (result.GetValue(filters.Scenario) is null || result.GetValue(filters.Server) is null))
            {
                // A sweep's (or a label's) matrix: every cell, failed ones included, against the axes the runs vary in.
                var set0 = sweep is null ? $"Runs labelled {label}" : $"Sweep {sweep}";
                var cells = await stores.Open(result).QueryAsync(filters.Query(result), cancellationToken);
                StoreCommand.ReportUnreadable(console, cells);
                if (cells.Runs.Count == 0)
                {
                    throw new RunLookupException(sweep is null ? $"no run labelled {label}" : $"no run of sweep {sweep}");
                }

                List<RunDocument> runs = [.. cells.Runs.OrderBy(r => r.StartedAt)];
                var title = $"{set0}: {string.Join(", ", runs.Select(r => r.Scenario).Distinct(StringComparer.Ordinal))}";
                if (result.GetValue(markdown) is { } markdownFile)
                {
                    await MatrixMarkdown.WriteAsync(markdownFile, console, title, runs, cancellationToken);
                }

                if (result.GetValue(html) is { } matrixFile)
                {
                    await File.WriteAllTextAsync(matrixFile.FullName, HtmlReport.Matrix(title, runs), cancellationToken);
                    console.Out.WriteLine($"{runs.Count} runs: HTML report {matrixFile.FullName}");
                }

                return ExitCodes.Success;
            }

            if (result.GetValue(markdown) is not null)
            {
                throw new ArgumentException("--markdown writes the table of a set of runs: give --sweep ID or --label LABEL.");
            }

            var query = filters.Query(result) with { Status = RunStatus.Succeeded };
            if (query.Scenario is null || query.Server is null)
            {
                throw new ArgumentException($"{name} needs --scenario and --server (one series at a time).");
            }

            var found = await stores.Open(result).QueryAsync(query, cancellationToken);
            StoreCommand.ReportUnreadable(console, found);
            var name0 = result.GetValue(measurement) ?? Headline(found.Runs);
            var series = found.Runs.Where(r => r.Measurements.ContainsKey(name0) && double.IsFinite(r.Measurements[name0])).Select(r => (r,
                r.Measurements[name0])).ToList();
            if (series.Count == 0)
            {
                throw new RunLookupException($"no succeeded run of {query} has {name0}");
            }

            // One meaning per series: runs that computed the name otherwise than the latest run are left out, and said so.
            var meaning = MeasurementMeaning.Of(series.MaxBy(p => p.r.StartedAt).r, name0);
            var other = series.Count(p => MeasurementMeaning.Of(p.r, name0) != meaning);
            if (other > 0)
            {
                series = [.. series.Where(p => MeasurementMeaning.Of(p.r, name0) == meaning)];
                console.Out.WriteLine($"{other} run(s) left out: they computed {name0} otherwise than the latest run ({meaning})");
            }

            // Like with like: the latest run's load shape and machine; the others are left out, and said so.
            var shape = LoadShape.Of(series.MaxBy(p => p.r.StartedAt).r);
            var unlike = series.Count(p => LoadShape.Of(p.r) != shape);
            if (unlike > 0)
            {
                series = [.. series.Where(p => LoadShape.Of(p.r) == shape)];
                console.Out.WriteLine($"{unlike} run(s) left out: another load shape or machine than the latest run's");
            }

            var info = Comparison.Info(found.Runs, name0);
            var points = RegressionDetector.Analyze(series, result.GetValue(window), result.GetValue(sigma), result.GetValue(consecutive), info.HigherIsBetter,
                run => RunSamples.Of(run, name0));
            var c = CultureInfo.InvariantCulture;
            console.Out.WriteLine($"{name0} for {query} ({points.Count} runs; band: mean ± {result.GetValue(sigma).ToString(c)}σ of the " +
                $"{result.GetValue(window)} runs' samples (their iterations when they measured several) " +
                $"before the first of the {result.GetValue(consecutive)} in a row a run is judged with, so with --consecutive 2 a run's band ends one run " +
                $"before it; flagged after {result.GetValue(consecutive)} in a row outside)");
            console.Out.WriteLine($"grouped by: {shape}");
            if (points.Any(p => p.BandLow is null))
            {
                console.Out.WriteLine($"no band for the first {Math.Min(points.Count, result.GetValue(window))} run(s): " +
                    $"a band needs {result.GetValue(window)} runs before it (--window)");
            }
            foreach (var p in points)
            {
                var band = p.BandLow is { } low && p.BandHigh is { } high ? $"[{ComparisonTextWriter.Number(low)} – {ComparisonTextWriter.Number(high)}]" : "";
                var flag = p.Flagged ? $"FLAGGED: {p.Direction}" : p.Outside ? "outside" : "";
                console.Out.WriteLine($"  {p.Run.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm:ss}  {RunId.Short(p.Run.Id),-8}  " +
                    $"{ComparisonTextWriter.Number(p.Value),14} {info.Unit,-6} {band,-28} {flag}");
            }

            if (result.GetValue(html) is { } file)
            {
                await File.WriteAllTextAsync(file.FullName,
                    HtmlReport.History($"History: {query.Scenario} on {query.Server}", name0, info.Unit, points, result.GetValue(sigma),
                        result.GetValue(window)),
                    cancellationToken);
                console.Out.WriteLine($"HTML report: {file.FullName}");
            }

            var flagged = points.Count(p => p.Flagged);
            if (flagged > 0)
            {
                console.Out.WriteLine($"{flagged} result(s) flagged");
                return name == "history" ? ExitCodes.Failed : ExitCodes.Success;
            }

            console.Out.WriteLine("no result flagged");
            return ExitCodes.Success;
        }));
        return command;
    }

    /// <summary>The headline rate of the latest run that reports one (any protocol's), else HTTP's.</summary>
    private static string Headline(IReadOnlyList<RunDocument> runs) =>
        runs.OrderByDescending(r => r.StartedAt)
            .Select(r => MeasurementCatalog.OwnOf(MeasurementRole.Headline, r.Measurements)?.Name)
            .FirstOrDefault(n => n is not null) ?? HttpMeasures.RpsMean.Name;
}

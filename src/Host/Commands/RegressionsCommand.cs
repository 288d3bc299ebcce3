using System.CommandLine;
using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Reports;
using Benchmarks.Host.Store;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>benchmarks regressions</c>: every series in the store (or those the filters keep), the
/// changes in its headline and per-request costs, what changed between the runs on either side,
/// and the series that stopped running. Exit 1 when a regression is open (no later change undid
/// it), so a nightly pipeline can gate on it.
/// </summary>
internal static class RegressionsCommand
{
    public static Command Create(CliConsole console)
    {
        var stores = new StoreOptionSet();
        var filters = new RunFilterOptionSet();
        var measurements = new Option<string[]>("--measurement", "-m") { Description = "Follow these measurements (repeatable; default: the headline rate, " +
            "the tail latency, CPU and allocations per request, start-up and working set).", Arity = ArgumentArity.ZeroOrMore };
        var confidence = new Option<double>("--confidence") { Description = "How sure a change must be: 1 − the permutation test's significance level.",
            DefaultValueFactory = _ => ChangePointSettings.Default.Confidence };
        var minChange = new Option<double>("--min-change") { Description = "The smallest step reported, in % of the level before it.",
            DefaultValueFactory = _ => ChangePointSettings.Default.MinChange * 100 };
        var minRuns = new Option<int>("--min-runs") {
            Description = "The fewest runs on each side of a change: a change is found once this many runs follow it.",
            DefaultValueFactory = _ => ChangePointSettings.Default.MinSegment };
        var since = new Option<string?>("--since") { Description = "Report only changes whose first run after is on or after this date (2026-11-21): " +
            "what is new since the last look." };
        var markdown = new Option<string?>("--markdown") { Description = "Write issue bodies (at most --per-issue open regressions each, " +
            "with their evidence and a compare command) to this file, or '-' for the output." };
        var perIssue = new Option<int>("--per-issue") { Description = "Open regressions per Markdown issue body.", DefaultValueFactory = _ => 3 };
        var json = new Option<string?>("--json") { Description = "Write the series, changes and stopped series as JSON to this file, or '-' for the output." };
        var list = new Option<bool>("--series") { Description = "List the series (id, runs, last run, usual interval, stopped, what defines it) " +
            "instead of their changes." };
        var html = new Option<FileInfo?>("--html") { Description = "Also write a self-contained HTML page: the answer in words, " +
            "then every series by run with its changes marked." };
        var command = new Command("regressions",
            "Find the changes in every series of runs (scenario, server, load shape and machine) by change-point detection, " +
            "say what changed between the runs on either side, and list series that stopped running (exit 1 when a regression is open).")
        {
            measurements, confidence, minChange, minRuns, since, markdown, perIssue, json, html, list,
        };
        foreach (var option in stores.All.Concat(filters.All))
        {
            command.Options.Add(option);
        }

        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            var settings = new ChangePointSettings(result.GetValue(confidence), result.GetValue(minChange) / 100, result.GetValue(minRuns));
            if (settings.Problem() is { } problem)
            {
                return console.Fail(ExitCodes.Usage, $"--confidence, --min-change, --min-runs: {problem}.");
            }

            if (result.GetValue(perIssue) is < 1 or > 20)
            {
                return console.Fail(ExitCodes.Usage, "--per-issue must be between 1 and 20.");
            }

            DateTimeOffset? from = null;
            if (result.GetValue(since) is { } sinceText)
            {
                from = DateTimeOffset.TryParse(sinceText, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var parsed)
                    ? parsed
                    : null;
                if (from is null)
                {
                    return console.Fail(ExitCodes.Usage, $"--since '{sinceText}' is not a date (2026-11-21, or with a time).");
                }
            }

            // Only what a series reads of each run: many runs fit in memory.
            var asked = result.GetValue(measurements) ?? [];
            var store = stores.Open(result);
            var found = await store.QuerySeriesAsync(filters.Query(result) with { Status = Documents.RunStatus.Succeeded },
                asked.Length > 0 ? asked.ToHashSet(StringComparer.Ordinal) : SeriesChanges.Candidates, cancellationToken);
            StoreCommand.ReportUnreadable(console, found);
            var series = Series.Of(found.Runs);
            if (series.Count == 0)
            {
                throw new RunLookupException("no succeeded run matches");
            }

            if (result.GetValue(list))
            {
                new RegressionReport(series, [], [], settings).WriteSeries(console.Out, console.Time.GetUtcNow());
                return ExitCodes.Success;
            }

            // Series are independent (each detection seeds its own shuffles): one per core, in the series' order.
            var changes = series.AsParallel().AsOrdered().WithCancellation(cancellationToken).SelectMany(s => SeriesChanges.Find(s, asked, settings))
                .Where(c => from is null || c.FirstAfter.StartedAt >= from)
                .ToList();

            // What changed, from the whole documents of the few runs around each change, read at once.
            var whole = (await store.GetAsync([.. changes.SelectMany(c => c.Around).Select(r => r.Id).Distinct(StringComparer.Ordinal)], cancellationToken))
                .ToDictionary(r => r.Id, StringComparer.Ordinal);
            for (var i = 0; i < changes.Count; i++)
            {
                changes[i] = SeriesChanges.Attribute(changes[i], [.. changes[i].Around.Select(r => whole.GetValueOrDefault(r.Id) ?? r)]);
            }

            var now = console.Time.GetUtcNow();
            var report = new RegressionReport(series, changes, [.. series.Where(s => s.StoppedBy(now))], settings);
            var markdownTarget = result.GetValue(markdown);
            var jsonTarget = result.GetValue(json);
            if (markdownTarget != "-" && jsonTarget != "-")
            {
                report.WriteText(console.Out);
            }

            if (markdownTarget is not null)
            {
                using var text = new StringWriter { NewLine = "\n" };
                report.WriteMarkdown(text, result.GetValue(perIssue));
                await Write(console, markdownTarget, text.ToString(), "Markdown", cancellationToken);
            }

            if (jsonTarget is not null)
            {
                await Write(console, jsonTarget, report.ToJson(now).ToJsonString(new System.Text.Json.JsonSerializerOptions { WriteIndented = true }) + "\n",
                    "JSON", cancellationToken);
            }

            if (result.GetValue(html) is { } page)
            {
                await File.WriteAllTextAsync(page.FullName, HtmlReport.Regressions(report), cancellationToken);
                console.Out.WriteLine($"HTML report: {page.FullName}");
            }

            return report.Open.Count > 0 ? ExitCodes.Failed : ExitCodes.Success;
        }));
        return command;
    }

    private static async Task Write(CliConsole console, string target, string text, string what, CancellationToken cancellationToken)
    {
        if (target == "-")
        {
            await console.Out.WriteAsync(text);
            return;
        }

        await File.WriteAllTextAsync(target, text, cancellationToken);
        console.Out.WriteLine($"{what}: {Path.GetFullPath(target)}");
    }
}

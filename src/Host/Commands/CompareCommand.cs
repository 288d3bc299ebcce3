using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Reports;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks compare BASELINE CANDIDATE</c>: medians, change and a Mann–Whitney verdict per measurement.</summary>
internal static class CompareCommand
{
    public static Command Create(CliConsole console)
    {
        var baseline = new Argument<string>("baseline") { Description = "A run id (or unique prefix), a label (label:NAME), " +
            "or a filter such as scenario=pipelined,server=kestrel,label=before." };
        var candidate = new Argument<string>("candidate") { Description = "The same forms as the baseline." };
        var stores = new StoreOptionSet();
        var threshold = new Option<double>("--threshold") { Description = "Smallest change, in %, reported as significant.", DefaultValueFactory = _ => 5 };
        var alpha = new Option<double>("--alpha") { Description = "Significance level of the Mann–Whitney test.", DefaultValueFactory = _ => 0.05 };
        var measurements = new Option<string[]>("--measurement", "-m") { Description = "Compare only these measurements (repeatable).",
            Arity = ArgumentArity.ZeroOrMore };
        var markdown = new Option<bool>("--markdown") { Description = "Print Markdown instead of a console table." };
        var detail = new Option<bool>("--detail") { Description = "Every measurement, each with its note, and the method (default: what changed, " +
            "then the rate, failures, latency and CPU; -m shows what it names)." };
        var html = new Option<FileInfo?>("--html") { Description = "Also write a self-contained HTML report with charts." };
        var byCell = new Option<bool>("--by-cell") { Description = "Compare two sweeps (label:sweep:ID) cell by cell: " +
            "cells matched on the values the baseline sweep varies, each compared on its rate and p99." };
        var command = new Command("compare", "Compare two runs or groups of runs: per measurement the medians, the change, and whether it is significant.")
        {
            baseline, candidate, threshold, alpha, measurements, markdown, detail, html, byCell, stores.Store, stores.Results,
        };
        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            var settings = new ComparisonSettings(result.GetValue(threshold), result.GetValue(alpha));
            if (!double.IsFinite(settings.ThresholdPercent) || settings.ThresholdPercent < 0 || !(settings.Alpha is > 0 and < 1))
            {
                throw new ArgumentException("--threshold must be at least 0 and --alpha between 0 and 1.");
            }

            var store = stores.Open(result);
            var before = await RunSelector.ResolveAsync(store, result.GetRequiredValue(baseline), cancellationToken);
            var after = await RunSelector.ResolveAsync(store, result.GetRequiredValue(candidate), cancellationToken);
            if (result.GetValue(byCell))
            {
                var cells = CellComparison.Write(console.Out, before, after, settings, result.GetValue(markdown));
                return cells.Worse > 0 ? console.Fail(ExitCodes.Failed, $"{cells.Worse} measurement(s) worse across the cells")
                    : cells.Inconclusive > 0 ? ExitCodes.Inconclusive
                    : ExitCodes.Success;
            }

            var scenarios = before.Runs.Concat(after.Runs).Select(r => r.Scenario).Distinct(StringComparer.Ordinal).ToList();
            if (scenarios.Count > 1)
            {
                throw new ArgumentException($"the sides mix scenarios ({string.Join(", ", scenarios)}): compare runs of one scenario (add scenario=… to a " +
                    $"filter)");
            }

            // Like with like: a side that is another series (another protocol, limit, machine...) is said so, with how.
            if (before.Runs.Count > 0 && after.Runs.Count > 0 && RunDifferences.InSeries(before.Runs[0], after.Runs[0]) is { Count: > 0 } differ)
            {
                console.Out.WriteLine($"note: the sides are different series: {string.Join("; ", differ)}");
            }

            var comparison = Comparison.Create(before, after, settings, result.GetValue(measurements));
            if (comparison.Rows.Count == 0)
            {
                throw new ArgumentException("the two sides share no measurement");
            }

            var every = result.GetValue(detail) || result.GetValue(measurements) is { Length: > 0 };
            if (result.GetValue(markdown))
            {
                ComparisonTextWriter.WriteMarkdown(console.Out, comparison, every);
            }
            else
            {
                ComparisonTextWriter.WriteTable(console.Out, comparison, every);
            }

            if (result.GetValue(html) is { } file)
            {
                await File.WriteAllTextAsync(file.FullName, HtmlReport.Compare(comparison), cancellationToken);
                console.Out.WriteLine($"HTML report: {file.FullName}");
            }

            // One exit code per answer: worse (1), not enough evidence (4), otherwise 0.
            var worse = comparison.Rows.Where(r => r.Verdict == ComparisonVerdict.Worse).Select(r => r.Name).ToList();
            if (worse.Count > 0)
            {
                return console.Fail(ExitCodes.Failed, $"worse: {string.Join(", ", worse)}");
            }

            // The verdict line above says why.
            return comparison.Rows.Any(r => r.Verdict == ComparisonVerdict.Inconclusive) ? ExitCodes.Inconclusive : ExitCodes.Success;
        }));
        return command;
    }
}

using System.Globalization;
using System.Text.Json.Nodes;

namespace Benchmarks.Host.Reports;

/// <summary>
/// What <c>benchmarks regressions</c> found, in the three forms a lab uses: a short table for the
/// console, Markdown issue bodies (a few changes each, with their evidence and a compare command)
/// and JSON for a pipeline.
/// </summary>
internal sealed record RegressionReport(IReadOnlyList<Series> Series, IReadOnlyList<SeriesChange> Changes, IReadOnlyList<Series> Stopped,
    ChangePointSettings Settings)
{
    private static readonly CultureInfo s_c = CultureInfo.InvariantCulture;

    /// <summary>The changes a nightly gate fails on: regressions no later change undid.</summary>
    public IReadOnlyList<SeriesChange> Open => [.. Changes.Where(c => c.IsRegression && c.RecoveredBy is null)];

    public string Method =>
        $"change points (E-Divisive means, permutation test at {Settings.Confidence.ToString("0.####%", s_c)} confidence; " +
        $"smallest change {Settings.MinChange.ToString("0.##%", s_c)}; at least {Settings.MinSegment} runs on each side)";

    public void WriteText(TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine($"{Series.Count} series, {Series.Sum(s => s.Runs.Count)} runs; {Method}");
        foreach (var change in Changes)
        {
            writer.WriteLine($"{change.Series.Id}  {change.Series.Scenario} on {change.Series.Server}  {change.Measurement}  {Percent(change.Point.Change)} " +
                $"{Range(change)} {change.Direction}  from run {Documents.RunId.Short(change.FirstAfter.Id)} " +
                $"({change.FirstAfter.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm})  {Level(change)}  p {P(change.Point.PValue)}{Recovery(change)}");
            writer.WriteLine($"    what changed: {change.WhatChanged}");
            if (change.Windows is { } windows)
            {
                writer.WriteLine($"    windows: {windows}");
            }
        }

        foreach (var stopped in Stopped)
        {
            writer.WriteLine($"{stopped.Id}  {stopped.Scenario} on {stopped.Server}  stopped: last run {stopped.Last.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm}," +
                $" usually every {Interval(stopped.UsualInterval!.Value)}");
        }

        var recovered = Changes.Count(c => c.IsRegression && c.RecoveredBy is not null);
        writer.WriteLine($"{Open.Count} regression(s) open, {recovered} recovered, {Changes.Count(c => c.Direction == "improvement")} improvement(s), " +
            $"{Stopped.Count} series stopped");
    }

    /// <summary>Issue bodies of at most <paramref name="perIssue"/> open regressions each, largest first, separated by a line of dashes.</summary>
    public void WriteMarkdown(TextWriter writer, int perIssue)
    {
        ArgumentNullException.ThrowIfNull(writer);
        var open = Open.OrderByDescending(c => Math.Abs(c.Point.Change)).ToList();
        if (open.Count == 0)
        {
            writer.WriteLine($"No open regression in {Series.Count} series ({Method}).");
            return;
        }

        for (var first = 0; first < open.Count; first += perIssue)
        {
            var issue = open.Skip(first).Take(perIssue).ToList();
            if (first > 0)
            {
                writer.WriteLine();
                writer.WriteLine("---");
                writer.WriteLine();
            }

            writer.WriteLine($"# Regression{(issue.Count == 1 ? "" : "s")}: " +
                $"{string.Join(", ", issue.Select(c => $"{c.Series.Scenario} on {c.Series.Server} {c.Measurement} {Percent(c.Point.Change)}"))}");
            foreach (var change in issue)
            {
                writer.WriteLine();
                writer.WriteLine($"## {change.Series.Scenario} on {change.Series.Server}: `{change.Measurement}` {Percent(change.Point.Change)}");
                writer.WriteLine();
                writer.WriteLine($"Series `{change.Series.Id}`: {change.Series.Shape}.");
                writer.WriteLine();
                writer.WriteLine("| | run | date | mean of its level |");
                writer.WriteLine("|---|---|---|---|");
                writer.WriteLine($"| last before | `{Documents.RunId.Short(change.LastBefore.Id)}` | " +
                    $"{change.LastBefore.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm} | {ComparisonTextWriter.Number(change.Point.Before)} {change.Info.Unit} |");
                writer.WriteLine($"| first after | `{Documents.RunId.Short(change.FirstAfter.Id)}` | " +
                    $"{change.FirstAfter.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm} | {ComparisonTextWriter.Number(change.Point.After)} {change.Info.Unit} |");
                writer.WriteLine();
                writer.WriteLine($"How sure: p {P(change.Point.PValue)} ({Method}); the change's 95% interval {Range(change)} (Hodges–Lehmann over the two " +
                    $"levels' runs).");
                writer.WriteLine();
                writer.WriteLine(change.ChangedAt == 0 ? "What changed between the two runs:"
                    : $"What changed, {Math.Abs(change.ChangedAt)} run{(Math.Abs(change.ChangedAt) == 1 ? "" : "s")} " +
                        $"{(change.ChangedAt < 0 ? "before" : "after")} the change (a step in noise is placed to within a few runs):");
                writer.WriteLine();
                foreach (var line in change.Differences.DefaultIfEmpty("nothing recorded (the same commit, dependencies, machine and settings)"))
                {
                    writer.WriteLine($"- {line}");
                }

                writer.WriteLine();
                if (change.Windows is { } windows)
                {
                    writer.WriteLine($"Windows, by level: {windows}.");
                    writer.WriteLine();
                }

                writer.WriteLine($"Compare the two levels' runs: `{change.CompareCommand}`");
            }
        }
    }

    public JsonObject ToJson(DateTimeOffset now) => new()
    {
        ["method"] = Method,
        ["confidence"] = Settings.Confidence,
        ["minChange"] = Settings.MinChange,
        ["minRuns"] = Settings.MinSegment,
        ["series"] = new JsonArray([.. Series.Select(s => (JsonNode)new JsonObject
        {
            ["id"] = s.Id,
            ["scenario"] = s.Scenario,
            ["server"] = s.Server,
            ["shape"] = s.Shape,
            ["runs"] = s.Runs.Count,
            ["lastRun"] = s.Last.Id,
            ["lastRunAt"] = s.Last.StartedAt,
            ["usualIntervalHours"] = s.UsualInterval?.TotalHours,
            ["stopped"] = s.StoppedBy(now),
        })]),
        ["changes"] = new JsonArray([.. Changes.Select(c => (JsonNode)new JsonObject
        {
            ["series"] = c.Series.Id,
            ["measurement"] = c.Measurement,
            ["unit"] = c.Info.Unit,
            ["direction"] = c.Direction,
            ["change"] = c.Point.Change,
            ["before"] = c.Point.Before,
            ["after"] = c.Point.After,
            ["pValue"] = c.Point.PValue,
            ["changeLow"] = double.IsFinite(c.Interval.Low) ? c.Interval.Low / 100 : null,
            ["changeHigh"] = double.IsFinite(c.Interval.High) ? c.Interval.High / 100 : null,
            ["lastBefore"] = c.LastBefore.Id,
            ["firstAfter"] = c.FirstAfter.Id,
            ["firstAfterAt"] = c.FirstAfter.StartedAt,
            ["recoveredBy"] = c.RecoveredBy?.Id,
            ["compare"] = c.CompareCommand,
            ["differences"] = new JsonArray([.. c.Differences.Select(d => (JsonNode)JsonValue.Create(d))]),
            ["differencesAt"] = c.ChangedAt,
            ["windows"] = c.Windows,
        })]),
        ["open"] = Open.Count,
    };

    private static string Range(SeriesChange change) => double.IsFinite(change.Interval.Low) && double.IsFinite(change.Interval.High)
        ? $"[{(change.Interval.Low / 100).ToString("+0.0%;-0.0%;0%", s_c)}, {(change.Interval.High / 100).ToString("+0.0%;-0.0%;0%", s_c)}]"
        : "";

    /// <summary>The series, one a line: id, scenario and server, runs, the last, the usual interval, stopped or not, and the definition.</summary>
    public void WriteSeries(TextWriter writer, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(writer);
        writer.WriteLine($"{Series.Count} series, {Series.Sum(s => s.Runs.Count)} runs");
        foreach (var s in Series)
        {
            writer.WriteLine($"{s.Id}  {s.Scenario} on {s.Server}  {s.Runs.Count} runs, last {s.Last.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm}" +
                $"{(s.UsualInterval is { } usual ? $", usually every {Interval(usual)}" : "")}{(s.StoppedBy(now) ? ", STOPPED" : "")}  [{s.Shape}]");
        }
    }

    private static string Level(SeriesChange change) =>
        $"{ComparisonTextWriter.Number(change.Point.Before)} → {ComparisonTextWriter.Number(change.Point.After)} {change.Info.Unit}";

    private static string Recovery(SeriesChange change) =>
        change.RecoveredBy is { } back ? $"  recovered from run {Documents.RunId.Short(back.Id)} ({back.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm})" : "";

    private static string Percent(double change) => change.ToString("+0.0%;-0.0%;0%", s_c);

    public static string P(double p) => p <= 0.001 ? "≤ 0.001" : p.ToString("0.###", s_c);

    private static string Interval(TimeSpan interval) => interval.TotalDays >= 1 ? $"{interval.TotalDays.ToString("0.#", s_c)} days"
        : interval.TotalHours >= 1 ? $"{interval.TotalHours.ToString("0.#", s_c)} hours"
        : interval.TotalMinutes >= 1 ? $"{interval.TotalMinutes.ToString("0.#", s_c)} minutes"
        : $"{interval.TotalSeconds.ToString("0", s_c)} seconds";
}

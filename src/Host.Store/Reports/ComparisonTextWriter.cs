using System.Globalization;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Reports;

/// <summary>
/// A comparison as a console table or as Markdown. By default a short table: the rows that changed
/// first, then the headline rows (<see cref="MeasurementOrder.Comparison"/>), each with a one-word
/// verdict, and one verdict line for the whole; with <c>detail</c> every row in showing order, each
/// with its note, and the method.
/// </summary>
internal static class ComparisonTextWriter
{
    public static void WriteTable(TextWriter writer, Comparison comparison, bool detail = false)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(comparison);
        writer.WriteLine($"baseline:  {comparison.Baseline.Describe()}");
        writer.WriteLine($"candidate: {comparison.Candidate.Describe()}");
        if (detail)
        {
            writer.WriteLine(Settings(comparison));
            writer.WriteLine();
        }

        var rows = Shown(comparison, detail);
        var width = Math.Max(12, rows.Select(r => r.Name.Length).DefaultIfEmpty(0).Max());
        writer.WriteLine($"{"measurement".PadRight(width)}  {"baseline",14}  {"candidate",14}  {"change",9}  {Interval(comparison),-19}  {"p",7}  verdict");
        foreach (var row in rows)
        {
            writer.WriteLine($"{row.Name.PadRight(width)}  {Number(row.BaselineMedian),14}  {Number(row.CandidateMedian),14}  {Change(row.ChangePercent),9}  " +
                $"{Range(row),-19}  {P(row.PValue),7}  {(detail ? Mark(row) : Word(row))}");
        }

        writer.WriteLine(Verdict(comparison));
        foreach (var line in CauseShift.Lines(comparison.Baseline, comparison.Candidate).Concat(TraceShift.Lines(comparison.Baseline, comparison.Candidate))
            .Concat(WindowShift.Lines(comparison.Baseline, comparison.Candidate)))
        {
            writer.WriteLine(line);
        }

        if (More(comparison, rows) is { } more)
        {
            writer.WriteLine(more);
        }
    }

    public static void WriteMarkdown(TextWriter writer, Comparison comparison, bool detail = false)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(comparison);
        writer.WriteLine($"**Baseline:** {Escape(comparison.Baseline.Describe())}  ");
        writer.WriteLine($"**Candidate:** {Escape(comparison.Candidate.Describe())}  ");
        writer.WriteLine(Escape(Settings(comparison)));
        writer.WriteLine();
        var rows = Shown(comparison, detail);
        writer.WriteLine($"| measurement | baseline | candidate | change | {Interval(comparison)} | p | verdict |");
        writer.WriteLine("|---|---:|---:|---:|---:|---:|---|");
        foreach (var row in rows)
        {
            writer.WriteLine($"| `{row.Name}` | {Number(row.BaselineMedian)} | {Number(row.CandidateMedian)} | {Change(row.ChangePercent)} | {Range(row)} | " +
                $"{P(row.PValue)} | {Escape(detail ? Mark(row) : Word(row))} |");
        }

        writer.WriteLine();
        writer.WriteLine(Escape(Verdict(comparison)));
        if (More(comparison, rows) is { } more)
        {
            writer.WriteLine();
            writer.WriteLine(Escape(more));
        }
    }

    /// <summary>
    /// The rows a table shows: with <paramref name="detail"/> all, in showing order; else those that
    /// changed, then the short list's (a failure count only when it was not 0 on both sides).
    /// </summary>
    public static IReadOnlyList<ComparisonRow> Shown(Comparison comparison, bool detail)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var ordered = comparison.Rows.OrderBy(r => Position(MeasurementOrder.Full, r.Name)).ThenBy(r => r.Name, StringComparer.Ordinal).ToList();
        if (detail)
        {
            return ordered;
        }

        var changed = ordered.Where(Changed);
        var headline = ordered
            .Where(r => MeasurementOrder.Comparison.Contains(r.Name) && !Changed(r))
            .Where(r => !MeasurementOrder.IsFailure(r.Name) || r.BaselineMedian != 0 || r.CandidateMedian != 0)
            .OrderBy(r => Position(MeasurementOrder.Comparison, r.Name));
        return [.. changed, .. headline];
    }

    /// <summary>The whole comparison in one line: what got worse and better, else why it cannot say, else no change.</summary>
    public static string Verdict(Comparison comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var worse = Names(comparison, ComparisonVerdict.Worse);
        var better = Names(comparison, ComparisonVerdict.Better);
        var changed = Names(comparison, ComparisonVerdict.Changed);
        var parts = new List<string>();
        if (worse.Length > 0)
        {
            parts.Add($"WORSE: {worse}");
        }

        if (better.Length > 0)
        {
            parts.Add($"better: {better}");
        }

        if (changed.Length > 0)
        {
            parts.Add($"changed: {changed}");
        }

        if (parts.Count > 0)
        {
            return $"verdict: {string.Join("; ", parts)}";
        }

        var inconclusive = Shown(comparison, detail: false).Concat(comparison.Rows).FirstOrDefault(r => r.Verdict == ComparisonVerdict.Inconclusive);
        return inconclusive is not null ? $"verdict: {inconclusive.Note}" : "verdict: no significant change";
    }

    /// <summary>One word per row, the note left to the verdict line and <c>--detail</c>.</summary>
    public static string Word(ComparisonRow row) => row.Verdict switch
    {
        ComparisonVerdict.Better => "better",
        ComparisonVerdict.Worse => "WORSE",
        ComparisonVerdict.Changed => "changed",
        ComparisonVerdict.NoChange => "no change",
        ComparisonVerdict.Inconclusive => "inconclusive",
        _ => row.Note,
    };

    public static string Mark(ComparisonRow row) => row.Verdict switch
    {
        ComparisonVerdict.Better => "better",
        ComparisonVerdict.Worse => "WORSE",
        ComparisonVerdict.Changed => "changed",
        ComparisonVerdict.NoChange => $"no significant change ({row.Note})",
        ComparisonVerdict.Inconclusive => row.Note,
        _ => row.Note,
    };

    public static string Number(double value) => double.IsNaN(value) ? "n/a"
        : Math.Abs(value) >= 1000 ? value.ToString("N0", CultureInfo.InvariantCulture)
        : value.ToString("0.###", CultureInfo.InvariantCulture);

    public static string Change(double percent) =>
        double.IsNaN(percent)
            ? "n/a"
            : double.IsInfinity(percent) ? (percent > 0 ? "+inf" : "-inf") : percent.ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture) + "%";

    /// <summary>The column heading of the change's confidence interval.</summary>
    public static string Interval(Comparison comparison) =>
        string.Create(CultureInfo.InvariantCulture, $"{(1 - comparison.Settings.Alpha) * 100:0.#}% CI of change");

    /// <summary>The change's Hodges-Lehmann interval, % of the baseline median; "n/a" when the sides are too small for it.</summary>
    public static string Range(ComparisonRow row) =>
        double.IsNaN(row.ChangeLow) || double.IsNaN(row.ChangeHigh) ? "n/a" : $"[{Change(row.ChangeLow)}, {Change(row.ChangeHigh)}]";

    public static string P(double? p) => p is { } value ? value.ToString(value < 0.001 ? "0.0e0" : "0.###", CultureInfo.InvariantCulture) : "-";

    private static string Settings(Comparison comparison) => string.Create(CultureInfo.InvariantCulture,
        $"medians; significant when Mann-Whitney p < {comparison.Settings.Alpha} (two-sided), |change| >= {comparison.Settings.ThresholdPercent}% and above " +
        $"the unit's noise floor; inconclusive when the sides are too small ever to reach p < {comparison.Settings.Alpha} (fewer than " +
        $"{HodgesLehmann.RunsNeeded(comparison.Settings.Alpha)} runs a side); the change's interval is Hodges-Lehmann's");

    private static string? More(Comparison comparison, IReadOnlyList<ComparisonRow> shown) => shown.Count < comparison.Rows.Count
        ? $"({comparison.Rows.Count - shown.Count} more measurements, none significant: --detail shows every one with its note, and the method)"
        : null;

    private static bool Changed(ComparisonRow row) => row.Verdict is ComparisonVerdict.Better or ComparisonVerdict.Worse or ComparisonVerdict.Changed;

    private static int Position(IReadOnlyList<string> order, string name)
    {
        for (var i = 0; i < order.Count; i++)
        {
            if (order[i] == name)
            {
                return i;
            }
        }

        return int.MaxValue;
    }

    /// <summary>The names of the rows with one verdict, the first four and how many more.</summary>
    private static string Names(Comparison comparison, ComparisonVerdict verdict)
    {
        var names = Shown(comparison, detail: true).Where(r => r.Verdict == verdict).Select(r => r.Name).ToList();
        return names.Count <= 4 ? string.Join(", ", names) : $"{string.Join(", ", names.Take(4))} and {names.Count - 4} more";
    }

    private static string Escape(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);
}

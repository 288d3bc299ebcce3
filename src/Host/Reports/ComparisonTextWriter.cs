using System.Globalization;

namespace Benchmarks.Host.Reports;

/// <summary>A comparison as a console table or as Markdown.</summary>
internal static class ComparisonTextWriter
{
    public static void WriteTable(TextWriter writer, Comparison comparison)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(comparison);
        writer.WriteLine($"baseline:  {comparison.Baseline.Describe()}");
        writer.WriteLine($"candidate: {comparison.Candidate.Describe()}");
        writer.WriteLine(Settings(comparison));
        writer.WriteLine();
        var width = Math.Max(12, comparison.Rows.Select(r => r.Name.Length).DefaultIfEmpty(0).Max());
        writer.WriteLine($"{"measurement".PadRight(width)}  {"baseline",14}  {"candidate",14}  {"change",9}  {Interval(comparison),-19}  {"p",7}  verdict");
        foreach (var row in comparison.Rows)
        {
            writer.WriteLine($"{row.Name.PadRight(width)}  {Number(row.BaselineMedian),14}  {Number(row.CandidateMedian),14}  {Change(row.ChangePercent),9}  {Range(row),-19}  {P(row.PValue),7}  {Mark(row)}");
        }
    }

    public static void WriteMarkdown(TextWriter writer, Comparison comparison)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(comparison);
        writer.WriteLine($"**Baseline:** {Escape(comparison.Baseline.Describe())}  ");
        writer.WriteLine($"**Candidate:** {Escape(comparison.Candidate.Describe())}  ");
        writer.WriteLine(Escape(Settings(comparison)));
        writer.WriteLine();
        writer.WriteLine($"| measurement | baseline | candidate | change | {Interval(comparison)} | p | verdict |");
        writer.WriteLine("|---|---:|---:|---:|---:|---:|---|");
        foreach (var row in comparison.Rows)
        {
            writer.WriteLine($"| `{row.Name}` | {Number(row.BaselineMedian)} | {Number(row.CandidateMedian)} | {Change(row.ChangePercent)} | {Range(row)} | {P(row.PValue)} | {Mark(row)} |");
        }
    }

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

    public static string Change(double percent) => double.IsNaN(percent) ? "n/a" : double.IsInfinity(percent) ? (percent > 0 ? "+inf" : "-inf") : percent.ToString("+0.0;-0.0;0.0", CultureInfo.InvariantCulture) + "%";

    /// <summary>The column heading of the change's confidence interval.</summary>
    public static string Interval(Comparison comparison) => string.Create(CultureInfo.InvariantCulture, $"{(1 - comparison.Settings.Alpha) * 100:0.#}% CI of change");

    /// <summary>The change's Hodges-Lehmann interval, % of the baseline median; "n/a" when the sides are too small for it.</summary>
    public static string Range(ComparisonRow row) => double.IsNaN(row.ChangeLow) || double.IsNaN(row.ChangeHigh) ? "n/a" : $"[{Change(row.ChangeLow)}, {Change(row.ChangeHigh)}]";

    public static string P(double? p) => p is { } value ? value.ToString(value < 0.001 ? "0.0e0" : "0.###", CultureInfo.InvariantCulture) : "-";

    private static string Settings(Comparison comparison) => string.Create(CultureInfo.InvariantCulture,
        $"medians; significant when Mann-Whitney p < {comparison.Settings.Alpha} (two-sided), |change| >= {comparison.Settings.ThresholdPercent}% and above the unit's noise floor; inconclusive when the sides are too small ever to reach p < {comparison.Settings.Alpha} (fewer than {HodgesLehmann.RunsNeeded(comparison.Settings.Alpha)} runs a side); the change's interval is Hodges-Lehmann's");

    private static string Escape(string text) => text.Replace("|", "\\|", StringComparison.Ordinal);
}

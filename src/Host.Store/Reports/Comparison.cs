using System.Globalization;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>Two groups of runs compared measurement by measurement.</summary>
internal sealed class Comparison
{
    private Comparison(RunGroup baseline, RunGroup candidate, ComparisonSettings settings, IReadOnlyList<ComparisonRow> rows)
    {
        Baseline = baseline;
        Candidate = candidate;
        Settings = settings;
        Rows = rows;
    }

    public RunGroup Baseline { get; }

    public RunGroup Candidate { get; }

    public ComparisonSettings Settings { get; }

    public IReadOnlyList<ComparisonRow> Rows { get; }

    /// <summary>Compares every measurement both sides have (or only <paramref name="names"/>).</summary>
    public static Comparison Create(RunGroup baseline, RunGroup candidate, ComparisonSettings settings, IReadOnlyCollection<string>? names = null)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        ArgumentNullException.ThrowIfNull(settings);
        var shared = baseline.Runs.SelectMany(r => r.Measurements.Keys).Distinct(StringComparer.Ordinal)
            .Where(n => candidate.Runs.Any(r => r.Measurements.ContainsKey(n)))
            .Where(n => names is null || names.Count == 0 || names.Contains(n))
            .OrderBy(n => n, StringComparer.Ordinal);
        var rows = new List<ComparisonRow>();
        foreach (var name in shared)
        {
            var before = Values(baseline, name);
            var after = Values(candidate, name);
            if (before.Count == 0 || after.Count == 0)
            {
                continue;
            }

            var runs = baseline.Runs.Concat(candidate.Runs).ToList();
            var info = Info(runs, name);
            if (MeasurementMeaning.Conflict(runs, name) is { } conflict)
            {
                rows.Add(new ComparisonRow(name, info.Unit, info.HigherIsBetter, before, after, Median(before), Median(after), double.NaN, null,
                    ComparisonVerdict.NotTested, conflict));
                continue;
            }

            rows.Add(Row(name, info, before, after, settings));
        }

        return new Comparison(baseline, candidate, settings, rows);
    }

    /// <summary>The median, the statistic each side is summarized by.</summary>
    public static double Median(IReadOnlyList<double> values) => Operation.Median.Apply(values);

    /// <summary>
    /// The change's interval, % of the baseline. Where every value is positive (rates, latencies) it is
    /// the interval of the ratio: Hodges–Lehmann's on the logarithms, turned back into a change, so it
    /// never goes below −100%; otherwise the shift's interval over the baseline's median.
    /// </summary>
    internal static (double Low, double High) ChangeInterval(List<double> before, List<double> after, double baselineMedian, double alpha)
    {
        if (before.All(v => v > 0) && after.All(v => v > 0))
        {
            var (_, lowLog, highLog) = HodgesLehmann.Estimate([.. before.Select(v => Math.Log(v))], [.. after.Select(v => Math.Log(v))], alpha);
            return ((Math.Exp(lowLog) - 1) * 100, (Math.Exp(highLog) - 1) * 100);
        }

        var (_, low, high) = HodgesLehmann.Estimate(before, after, alpha);
        return baselineMedian == 0 ? (double.NaN, double.NaN) : (low / Math.Abs(baselineMedian) * 100, high / Math.Abs(baselineMedian) * 100);
    }

    private static ComparisonRow Row(string name, MeasurementInfo info, List<double> before, List<double> after, ComparisonSettings settings)
    {
        var baselineMedian = Median(before);
        var candidateMedian = Median(after);
        var change = baselineMedian == 0
            ? (candidateMedian == 0 ? 0 : double.PositiveInfinity * Math.Sign(candidateMedian))
            : (candidateMedian - baselineMedian) / Math.Abs(baselineMedian) * 100;
        var (lowPercent, highPercent) = ChangeInterval(before, after, baselineMedian, settings.Alpha);
        if (HodgesLehmann.SmallestPValue(before.Count, after.Count) >= settings.Alpha)
        {
            var note = $"inconclusive: {Sides(before.Count, after.Count)} cannot reach p < {settings.Alpha.ToString(CultureInfo.InvariantCulture)}; " +
                $"run at least {HodgesLehmann.RunsNeeded(settings.Alpha)} a side";
            return new ComparisonRow(name, info.Unit, info.HigherIsBetter, before, after, baselineMedian, candidateMedian, change, null,
                ComparisonVerdict.Inconclusive, note)
            {
                ChangeLow = lowPercent,
                ChangeHigh = highPercent,
            };
        }

        var p = MannWhitney.PValue(before, after);
        var floor = ComparisonSettings.NoiseFloor(info.Unit);
        string reason;
        ComparisonVerdict verdict;
        if (p >= settings.Alpha && (lowPercent < -settings.ThresholdPercent || highPercent > settings.ThresholdPercent))
        {
            // Not significant, and the interval still holds changes past the threshold: too few runs to say "no change".
            verdict = ComparisonVerdict.Inconclusive;
            reason = string.Create(CultureInfo.InvariantCulture, $"inconclusive: not significant (p = {p:0.###}), " +
                $"yet the change could be anywhere in [{lowPercent:+0.#;-0.#;0}%, {highPercent:+0.#;-0.#;0}%]; run more a side");
        }
        else if (p >= settings.Alpha)
        {
            verdict = ComparisonVerdict.NoChange;
            reason = "within noise";
        }
        else if (Math.Abs(change) < settings.ThresholdPercent)
        {
            verdict = ComparisonVerdict.NoChange;
            reason = $"below the {settings.ThresholdPercent:0.#}% threshold";
        }
        else if (Math.Abs(candidateMedian - baselineMedian) < floor)
        {
            verdict = ComparisonVerdict.NoChange;
            reason = $"below the {floor} {info.Unit} noise floor";
        }
        else
        {
            var up = candidateMedian > baselineMedian;
            verdict = info.HigherIsBetter is { } higher ? (up == higher ? ComparisonVerdict.Better : ComparisonVerdict.Worse) : ComparisonVerdict.Changed;
            reason = verdict.ToString().ToLowerInvariant();
        }

        return new ComparisonRow(name, info.Unit, info.HigherIsBetter, before, after, baselineMedian, candidateMedian, change, p, verdict, reason)
        {
            ChangeLow = lowPercent,
            ChangeHigh = highPercent,
        };
    }

    private static string Sides(int before, int after) => before == after ? $"{before} run{(before == 1 ? "" : "s")} a side" : $"{before} and {after} runs";

    /// <summary>The samples of one side: each run's iterations when it measured several, else its value.</summary>
    public static List<double> Values(RunGroup group, string name) => [.. group.Runs.SelectMany(r => RunSamples.Of(r, name))];

    /// <summary>The runs' own metadata first, then this tool's catalog, then the name's conventions.</summary>
    public static MeasurementInfo Info(IEnumerable<RunDocument> runs, string name)
    {
        var stored = runs.Select(r => r.Metadata.GetValueOrDefault(name)).FirstOrDefault(m => m is not null);
        var known = MeasurementCatalog.Describe(name);
        if (stored is null)
        {
            return known;
        }

        return stored with
        {
            Unit = stored.Unit is { Length: > 0 } ? stored.Unit : known.Unit,
            HigherIsBetter = stored.HigherIsBetter ?? known.HigherIsBetter,
        };
    }
}

using System.Globalization;
using System.Text.RegularExpressions;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Verdicts;

namespace Benchmarks.Host.Runs;

/// <summary>
/// A latency and error target (<c>p99&lt;10ms</c>, <c>p99.9&lt;50ms,errors&lt;0.1%</c>): every term
/// must hold, and in the open model the requested rate must have been met (a rate the load could
/// not reach is not one the server sustained). A run of several iterations is judged on each
/// measurement's median over them, so one unlucky window neither makes nor breaks it.
/// </summary>
internal sealed partial record ServiceLevel(string Text, IReadOnlyList<ServiceLevelTerm> Terms)
{
    public static ServiceLevel Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var terms = new List<ServiceLevelTerm>();
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var match = TermPattern().Match(part);
            if (!match.Success)
            {
                throw new FormatException($"'{part}' is not a target: write p99<10ms, p99.9<50ms, mean<2ms or errors<1% (comma-separated).");
            }

            var value = double.Parse(match.Groups["value"].Value, CultureInfo.InvariantCulture);
            var name = match.Groups["name"].Value.ToLowerInvariant();
            var unit = match.Groups["unit"].Value.ToLowerInvariant();
            if (name == "errors")
            {
                if (unit != "%")
                {
                    throw new FormatException($"'{part}': an error target is a share, such as errors<1%.");
                }

                terms.Add(new ServiceLevelTerm(part, null, value));
                continue;
            }

            var milliseconds = unit switch
            {
                "ms" => value,
                "s" => value * 1000,
                "us" or "µs" => value / 1000,
                _ => throw new FormatException($"'{part}': a latency target needs a unit (ms, s or us)."),
            };
            var percentile = name is "mean" or "max" ? name : name[1..];
            if (LatencyMeasures.Http.Find(percentile) is null)
            {
                throw new FormatException($"'{part}': no latency percentile {percentile} (use p50, p75, p90, p99, p99.9, mean or max).");
            }

            terms.Add(new ServiceLevelTerm(part, percentile, milliseconds));
        }

        return terms.Count == 0 ? throw new FormatException("the target is empty: write p99<10ms (comma-separated terms).") : new ServiceLevel(text, terms);
    }

    /// <summary>
    /// Whether a run met the target, why not (the first term it missed), and, for a miss in the
    /// open model that the load generator caused (<see cref="OpenModelRule.LoadBehind"/>), why the
    /// load is to blame: such a miss says the client's limit, not the server's.
    /// </summary>
    public (bool Met, string Reason, string? LoadBound) Check(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var c = CultureInfo.InvariantCulture;
        if (run.Status != RunStatus.Succeeded)
        {
            return (false, $"the run failed: {run.Error}", null);
        }

        var m = Judged(run);
        var (met, reason, blame, tail) = Judge(m);
        return (met, reason, blame ? OpenModelRule.LoadBehind(run, m, tail) : null);
    }

    /// <summary>Whether a load's own measurements meet the target, and why not (the first term they miss).</summary>
    public (bool Met, string Reason) Check(IReadOnlyDictionary<string, double> measurements)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        var (met, reason, _, _) = Judge(measurements);
        return (met, reason);
    }

    /// <summary>
    /// The first thing missed: the rate (the load may be to blame, for the whole rate), a term (the
    /// load may be to blame for its tail, <paramref name="m"/>'s share above the percentile), or none.
    /// </summary>
    private (bool Met, string Reason, bool MayBlameLoad, double? Tail) Judge(IReadOnlyDictionary<string, double> m)
    {
        var c = CultureInfo.InvariantCulture;
        if (m.TryGetValue(OpenModelMeasures.Of(m).RateShortfall.Name, out var shortfall) && shortfall > Load.DefaultLoad.ShortfallLimit * 100)
        {
            return (false, string.Create(c, $"the rate was not met ({shortfall:0.0}% short)"), true, null);
        }

        foreach (var term in Terms)
        {
            var measurement = term.In(m);
            if (term.Latency is not null && measurement is null)
            {
                return (false, $"{term.Text}: the run reports no latency to hold it against", false, null);
            }

            var actual = measurement is not null ? m.GetValueOrDefault(measurement.Name, double.NaN) : FailureShare(m);
            if (!(actual < term.Limit))
            {
                var reason = string.Create(c,
                    $"{term.Text[..term.Text.IndexOf('<', StringComparison.Ordinal)].Trim()} was {actual:0.###}{(measurement is null ? "%" : " ms")}");
                return (false, reason, term.TailShare is not null, term.TailShare);
            }
        }

        return (true, "met", false, null);
    }

    /// <summary>The line a run or a load prints about its target: <c>target p99&lt;10ms: met</c>, or NOT met and why.</summary>
    public string Describe(bool met, string reason, string? loadBound = null) =>
        met ? $"target {Text}: met" : $"target {Text}: NOT met: {reason}{(loadBound is null ? "" : $" (load-bound: {loadBound})")}";

    /// <summary>The values a target is checked against: the run's, or over several iterations each one's median.</summary>
    public static IReadOnlyDictionary<string, double> Judged(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        if (run.Spread.Count == 0)
        {
            return run.Measurements;
        }

        var values = new Dictionary<string, double>(run.Measurements, StringComparer.Ordinal);
        foreach (var (name, spread) in run.Spread)
        {
            values[name] = spread.Median;
        }

        return values;
    }

    /// <summary>
    /// Failures as a share of what ended, %: every failure count the run reports (its protocol's,
    /// by role: errors, bad answers, lost) over those and what completed, where a failure already
    /// counted among the completed (HTTP's bad responses are responses) is counted once.
    /// </summary>
    private static double FailureShare(IReadOnlyDictionary<string, double> m)
    {
        var failures = MeasurementCatalog.WithRole(MeasurementRole.Failures).Where(f => m.ContainsKey(f.Name)).ToList();
        var failed = failures.Sum(f => m[f.Name]);
        var completed = MeasurementCatalog.WithRole(MeasurementRole.Completed).Where(f => m.ContainsKey(f.Name)).Sum(f => m[f.Name]);
        var all = completed + failures.Where(f => !f.AmongCompleted).Sum(f => m[f.Name]);
        return all > 0 ? failed / all * 100 : 100;
    }

    [GeneratedRegex(@"^(?<name>p\d+(\.\d+)?|mean|max|errors)\s*<\s*(?<value>\d+(\.\d+)?)\s*(?<unit>ms|s|us|µs|%)?$", RegexOptions.IgnoreCase)]
    private static partial Regex TermPattern();
}

using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>
/// A run in one line, for <c>run --quiet</c>: what ran and how it ended, its headline rate, tail
/// latency and failures (by role, whatever the protocol), the target when one was set, the
/// verdict's first clause and the run's id.
/// </summary>
internal static class RunSummaryLine
{
    public static string Of(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var c = CultureInfo.InvariantCulture;
        var parts = new List<string>();
        var m = document.Measurements;
        if (MeasurementCatalog.OwnOf(MeasurementRole.Headline, m) is { } headline)
        {
            parts.Add(string.Create(c, $"{m[headline.Name]:n0} {headline.Unit}"));
        }

        if (LatencyMeasures.Of(m) is { } latency)
        {
            parts.Add(string.Create(c, $"p99 {m[latency.P99.Name]:0.###} ms"));
        }

        var failures = MeasurementCatalog.WithRole(MeasurementRole.Failures).Where(f => m.ContainsKey(f.Name)).ToList();
        if (failures.Count > 0)
        {
            parts.Add(string.Create(c, $"{failures.Sum(f => m[f.Name]):n0} errors"));
        }

        if (document.Parameters.TryGetValue("slo", out var slo))
        {
            parts.Add(ServiceLevel.Parse(slo).Check(document).Met ? $"target {slo} met" : $"target {slo} NOT met");
        }

        var status = document.Status.ToString().ToLowerInvariant();
        var outcome = document.Error is { } error ? $"{status}: {error}" : status;
        var figures = parts.Count > 0 ? $"; {string.Join(", ", parts)}" : "";
        // The verdict's first clause ("the kernel", "nothing saturated"); the table gives the rest.
        var bound = document.Bottleneck is { } verdict ? $"; bound: {verdict.Split(':')[0]}" : "";
        return $"{document.Scenario} on {document.Server}: {outcome}{figures}{bound}; run {RunId.Short(document.Id)}";
    }
}

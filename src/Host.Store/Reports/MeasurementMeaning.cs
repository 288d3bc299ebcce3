using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Reports;

/// <summary>
/// How a stored run computed a name, so that a comparison never sets two meanings side by side.
/// Before schema 2 a local run stored the window mean of every sampled name (so its
/// <c>benchmarks/cpu</c> was not crank's busiest interval), whatever its metadata said.
/// </summary>
internal static class MeasurementMeaning
{
    /// <summary>The latency families of the loads that take a rate: timed from the due time then.</summary>
    private static readonly LatencyMeasures[] s_timedFromDue = [LatencyMeasures.Http, LatencyMeasures.WebSocket];

    public static string Of(RunDocument run, string name)
    {
        ArgumentNullException.ThrowIfNull(run);
        if (run.Schema < 2 && run.Load != "crank" && MeasurementCatalog.Find(name) is { Sampled: true })
        {
            return "window mean (schema 1)";
        }

        var meaning = run.Metadata.GetValueOrDefault(name)?.Aggregate is { Length: > 0 } aggregate ? aggregate : "unstated";

        // The open model times a request from its due time, the closed loop from its send: the same name, two meanings.
        return run.Parameters.ContainsKey("rate")
            && s_timedFromDue.Any(f => name.StartsWith(f.Prefix + "/", StringComparison.Ordinal))
            && !name.Contains("/uncorrected/", StringComparison.Ordinal)
            ? $"{meaning}, from the due time (open model)"
            : meaning;
    }

    /// <summary>A one-line note when the runs computed <paramref name="name"/> in more than one way; null when they agree.</summary>
    public static string? Conflict(IEnumerable<RunDocument> runs, string name)
    {
        var meanings = runs.Where(r => r.Measurements.ContainsKey(name))
            .Select(r => Of(r, name))
            .Where(m => m != "unstated")
            .Distinct(StringComparer.Ordinal)
            .Order(StringComparer.Ordinal)
            .ToList();
        return meanings.Count > 1 ? $"computed differently by the runs ({string.Join(" vs ", meanings)}): not compared" : null;
    }
}

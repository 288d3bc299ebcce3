using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Reports;

/// <summary>
/// The changes in a series' headline and per-request costs: its rate, tail latency, CPU and
/// allocations per request, start-up and working set (or the measurements asked for), each
/// followed over the runs that computed it as the latest run does.
/// </summary>
internal static class SeriesChanges
{
    /// <summary>Followed beside the headline and tail latency, when the series' runs report them.</summary>
    private static readonly string[] s_costs =
    [
        RuntimeMeasures.CpuPerRequest.Name, RuntimeMeasures.AllocatedPerRequest.Name,
        StartupMeasures.FirstResponse.Name, SystemMeasures.WorkingSet.Name,
    ];

    /// <summary>The measurements followed in a series by default: its headline, tail latency and costs, as its latest run reports them.</summary>
    public static IReadOnlyList<string> Followed(Series series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var latest = series.Last.Measurements;
        return [.. new[] { MeasurementCatalog.OwnOf(MeasurementRole.Headline, latest)?.Name, MeasurementCatalog.OwnOf(MeasurementRole.TailLatency, latest)?.Name }
            .OfType<string>()
            .Concat(s_costs.Where(latest.ContainsKey))
            .Distinct(StringComparer.Ordinal)];
    }

    public static IReadOnlyList<SeriesChange> Find(Series series, IReadOnlyList<string>? measurements, ChangePointSettings settings)
    {
        ArgumentNullException.ThrowIfNull(series);
        var changes = new List<SeriesChange>();
        foreach (var name in measurements is { Count: > 0 } ? measurements : Followed(series))
        {
            // One meaning per series: the runs that computed the name as the latest run that has it does.
            var having = series.Runs.Where(r => r.Measurements.TryGetValue(name, out var v) && double.IsFinite(v)).ToList();
            if (having.Count < 2 * settings.MinSegment)
            {
                continue;
            }

            var meaning = MeasurementMeaning.Of(having[^1], name);
            having = [.. having.Where(r => MeasurementMeaning.Of(r, name) == meaning)];
            var info = Comparison.Info(having, name);
            var points = ChangePointDetector.Detect([.. having.Select(r => r.Measurements[name])], settings);
            foreach (var point in points)
            {
                var before = having[point.Index - 1];
                var after = having[point.Index];
                changes.Add(new SeriesChange(series, name, info, point, before, after, point.RecoveredAt is { } back ? having[back] : null, RunDifferences.Between(before, after)));
            }
        }

        return changes;
    }
}

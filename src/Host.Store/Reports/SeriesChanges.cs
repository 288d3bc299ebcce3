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

    /// <summary>
    /// Every measurement a series may follow by default (the headline and tail latency of every
    /// protocol, and the costs): what a store reads of each run.
    /// </summary>
    public static IReadOnlySet<string> Candidates { get; } = MeasurementCatalog.All
        .Where(m => m.Role is MeasurementRole.Headline or MeasurementRole.TailLatency).Select(m => m.Name)
        .Concat(s_costs).ToHashSet(StringComparer.Ordinal);

    /// <summary>The measurements followed in a series by default: its headline, tail latency and costs, as its latest run reports them.</summary>
    public static IReadOnlyList<string> Followed(Series series)
    {
        ArgumentNullException.ThrowIfNull(series);
        var latest = series.Last.Measurements;
        return [.. new[] { MeasurementCatalog.OwnOf(MeasurementRole.Headline, latest)?.Name, MeasurementCatalog.OwnOf(MeasurementRole.TailLatency,
            latest)?.Name }
            .OfType<string>()
            .Concat(s_costs.Where(latest.ContainsKey))
            .Distinct(StringComparer.Ordinal)];
    }

    /// <summary>
    /// The runs of the series that report <paramref name="name"/> and computed it as the latest of
    /// them does (one meaning per series), oldest first.
    /// </summary>
    public static IReadOnlyList<Documents.RunDocument> Having(Series series, string name)
    {
        ArgumentNullException.ThrowIfNull(series);
        var having = series.Runs.Where(r => r.Measurements.TryGetValue(name, out var v) && double.IsFinite(v)).ToList();
        if (having.Count == 0)
        {
            return having;
        }

        var meaning = MeasurementMeaning.Of(having[^1], name);
        return [.. having.Where(r => MeasurementMeaning.Of(r, name) == meaning)];
    }

    /// <summary>
    /// What changed between the runs on either side of the change at <paramref name="index"/>; when
    /// nothing did, between the nearest two runs in a row within <paramref name="reach"/> runs of it
    /// that differ (the nearer first, before on a tie): noise places a step to within a few runs.
    /// </summary>
    internal static (IReadOnlyList<string> Differences, int At) NearestDifference(IReadOnlyList<Documents.RunDocument> runs, int index, int reach)
    {
        foreach (var offset in Enumerable.Range(0, reach + 1).SelectMany(d => d == 0 ? [0] : new[] { -d, d }))
        {
            var at = index + offset;
            if (at >= 1 && at < runs.Count && RunDifferences.Between(runs[at - 1], runs[at]) is { Count: > 0 } differences)
            {
                return (differences, offset);
            }
        }

        return ([], 0);
    }

    /// <summary>
    /// The change with what changed, and how the windows held, read from the whole documents of the
    /// runs around it (<paramref name="whole"/>, in the order of <see cref="SeriesChange.Around"/>):
    /// a series reads its runs without their dependencies or windows, so that many runs fit in memory.
    /// </summary>
    public static SeriesChange Attribute(SeriesChange change, IReadOnlyList<Documents.RunDocument> whole)
    {
        ArgumentNullException.ThrowIfNull(change);
        ArgumentNullException.ThrowIfNull(whole);
        var (differences, at) = NearestDifference(whole, change.AroundIndex, change.Reach);
        var windows = WindowShift.Between("before", [.. whole.Take(change.AroundIndex)], "after", [.. whole.Skip(change.AroundIndex)]);
        return change with { Differences = differences, ChangedAt = at, Windows = windows };
    }

    public static IReadOnlyList<SeriesChange> Find(Series series, IReadOnlyList<string>? measurements, ChangePointSettings settings)
    {
        ArgumentNullException.ThrowIfNull(series);
        ArgumentNullException.ThrowIfNull(settings);
        var changes = new List<SeriesChange>();
        foreach (var name in measurements is { Count: > 0 } ? measurements : Followed(series))
        {
            var having = Having(series, name);
            if (having.Count < 2 * settings.MinSegment)
            {
                continue;
            }

            var info = Comparison.Info(having, name);
            var points = ChangePointDetector.Detect([.. having.Select(r => r.Measurements[name])], settings);
            for (var k = 0; k < points.Count; k++)
            {
                var point = points[k];
                var values = having.Select(r => r.Measurements[name]).ToList();
                var levelBefore = values[(k == 0 ? 0 : points[k - 1].Index)..point.Index];
                var levelAfter = values[point.Index..(k == points.Count - 1 ? values.Count : points[k + 1].Index)];
                var reach = settings.MinSegment + 2;
                var from = Math.Max(0, point.Index - reach - 1);
                IReadOnlyList<Documents.RunDocument> around = [.. having.Skip(from).Take(Math.Min(having.Count, point.Index + reach + 1) - from)];
                var (differences, at) = NearestDifference(around, point.Index - from, reach);
                changes.Add(new SeriesChange(series, name, info, point, having[point.Index - 1], having[point.Index],
                    point.RecoveredAt is { } back ? having[back] : null, differences, at)
                {
                    LevelBefore = having[k == 0 ? 0 : points[k - 1].Index],
                    NextLevel = k == points.Count - 1 ? null : having[points[k + 1].Index],
                    Around = around,
                    AroundIndex = point.Index - from,
                    Reach = reach,
                    Interval = Comparison.ChangeInterval(levelBefore, levelAfter, Comparison.Median(levelBefore), 0.05),
                });
            }
        }

        return changes;
    }
}

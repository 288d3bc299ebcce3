using Benchmarks.Host.Crank;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Agent.Protocol;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// Samples a running job every <c>measurementsIntervalSec</c> through the same sampler and the
/// same per-interval figures as a local run (<see cref="MetricsDelta"/>), declared with the
/// catalog's metadata, so crank reduces each name as the local run does. When the job asks for
/// counters (crank's <c>collectCounters</c>), the process's EventCounters are read over EventPipe
/// and sent each interval under the names the job's <c>counters</c> list gives them.
/// A job under a CPU quota or memory limit (crank's <c>cpuLimitRatio</c>, <c>memoryLimitInBytes</c>)
/// has its throttling and OOM kills sampled the same way.
/// </summary>
internal sealed class AgentMeasurements(AgentJob job, ISystemMetrics metrics, string? interfaceName, Platform.IResourceLimit? limit = null,
    LinkCapacity? capacity = null, IReadOnlyList<int>? cpus = null)
{
    private readonly List<Verdicts.JobSample> _samples = [];

    /// <summary>The samples since the job started or its statistics were last reset, one per interval in order: what its verdict is judged on.</summary>
    public IReadOnlyList<Verdicts.JobSample> Samples => _samples;

    public async Task RunAsync(TimeSpan interval, CancellationToken cancellationToken) =>
        await RunAsync(interval, [], new Dictionary<string, string>(), cancellationToken);

    public async Task RunAsync(TimeSpan interval, IReadOnlyList<string> counterProviders, IReadOnlyDictionary<string, string> counterNames,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(counterProviders);
        ArgumentNullException.ThrowIfNull(counterNames);
        RuntimeCounterSession? counters = null;
        if (counterProviders.Count > 0)
        {
            var (session, error) = await RuntimeCounterSession.StartAsync(job.TrackedProcessId, counterProviders, (int)Math.Max(1,
                interval.TotalSeconds), cancellationToken,
                (provider, counter) => counterNames.GetValueOrDefault($"{provider}/{counter}") ?? RuntimeMeasures.NameOf(provider, counter));
            counters = session;
            if (error is not null)
            {
                job.Output.Add($"[agent] {error}");
            }

            foreach (var name in counterNames.Values)
            {
                job.AddMetadata(CrankMetadata.For(name));
            }
        }

        await using var _ = counters;
        var sampler = new MetricsSampler(metrics, interfaceName, counters is null ? null : counters.Snapshot, limit is null ? null : limit.Read, cpus,
            capacity);
        if (limit is not null)
        {
            var reading = limit.Read();
            foreach (var measurement in LimitMeasures.All.Where(m => m.Sampled && (reading.CountsPeriods || !m.Name.StartsWith("benchmarks/cpu/",
                StringComparison.Ordinal))
                && (reading.CountsMemory || !m.Name.StartsWith("benchmarks/memory/", StringComparison.Ordinal))))
            {
                job.AddMetadata(CrankMetadata.For(measurement.Name));
            }
        }

        foreach (var measurement in SystemMeasures.All.Where(m => m.Sampled && !m.Name.StartsWith("load/", StringComparison.Ordinal)))
        {
            if ((measurement == SystemMeasures.LinkSpeed || measurement == SystemMeasures.Utilization) && sampler.LinkSpeedMbps is not > 0)
            {
                continue;
            }

            job.AddMetadata(CrankMetadata.For(measurement.Name));
        }

        var generation = job.StatisticsGeneration;
        var series = new IntervalSeries(sampler, () => job.TrackedProcessId);
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                if (job.StatisticsGeneration != generation)
                {
                    // The controller reset the statistics (a new iteration): totals, rates and
                    // maxima start again from here.
                    generation = job.StatisticsGeneration;
                    series.Restart();
                    _samples.Clear();
                    continue;
                }

                Record(series.Next(), generation);
            }
        }
        catch (OperationCanceledException)
        {
        }

        // The job may have ended inside the last interval.
        Record(series.Last(), generation);
    }

    private void Record(SortedDictionary<string, double>? sample, int generation)
    {
        var timestamp = DateTime.UtcNow;
        if (sample is not null)
        {
            _samples.Add(new Verdicts.JobSample(timestamp, sample));
        }

        foreach (var (name, value) in sample ?? [])
        {
            job.AddMeasurement(name, value, timestamp, generation);
        }
    }
}

using System.Diagnostics;
using Benchmarks.Host.Crank;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Agent.Protocol;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// Samples a running job every <c>measurementsIntervalSec</c> through the same sampler and the
/// same per-interval figures as a local run (<see cref="MetricsDelta"/>), declared with the
/// catalog's metadata, so crank reduces each name as the local run does.
/// </summary>
internal sealed class AgentMeasurements(AgentJob job, ISystemMetrics metrics, string? interfaceName)
{
    private int _processId;

    public async Task RunAsync(TimeSpan interval, CancellationToken cancellationToken)
    {
        var sampler = new MetricsSampler(metrics, interfaceName);
        foreach (var measurement in SystemMeasures.All.Where(m => m.Sampled && !m.Name.StartsWith("load/", StringComparison.Ordinal)))
        {
            if ((measurement == SystemMeasures.LinkSpeed || measurement == SystemMeasures.Utilization) && sampler.LinkSpeedMbps is not > 0)
            {
                continue;
            }

            job.AddMetadata(CrankMetadata.For(measurement.Name));
        }

        var generation = job.StatisticsGeneration;
        var first = Take(sampler);
        var previous = first;
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
                    first = previous = Take(sampler);
                    continue;
                }

                previous = Record(sampler, previous, first, generation);
            }
        }
        catch (OperationCanceledException)
        {
        }

        // The last part of an interval still counts: the job may have ended inside it. Its byte
        // totals always do; its rates only when it is long enough not to be noise.
        Record(sampler, previous, first, generation, rates: Stopwatch.GetElapsedTime(previous.Timestamp) > MetricsDelta.ShortestLastInterval);
    }

    private MetricsSnapshot Record(MetricsSampler sampler, MetricsSnapshot previous, MetricsSnapshot first, int generation, bool rates = true)
    {
        if (job.TrackedProcessId != _processId)
        {
            // The job named a child process: its counters start from here.
            return Take(sampler);
        }

        var current = Take(sampler);
        var timestamp = DateTime.UtcNow;
        foreach (var (name, value) in MetricsDelta.Between(previous, current, Environment.ProcessorCount, sampler.LinkSpeedMbps, first, rates))
        {
            job.AddMeasurement(name, value, timestamp, generation);
        }

        return current;
    }

    private MetricsSnapshot Take(MetricsSampler sampler)
    {
        _processId = job.TrackedProcessId;
        return sampler.Take(_processId);
    }
}

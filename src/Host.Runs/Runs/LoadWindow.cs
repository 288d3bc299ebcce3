using Benchmarks.Host.Crank;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Runs;

/// <summary>One measured window: a load process, sampled each second, its measurements and samples into an <see cref="Iteration"/> as they come.</summary>
internal sealed class LoadWindow(RunSession session)
{
    private readonly RunSession _session = session;

    /// <summary>
    /// One measured window: a load process, sampled each second; its measurements and samples go
    /// into <paramref name="iteration"/> as they come.
    /// </summary>
    public async Task<JobFailure?> MeasureAsync(RunRequest request, LoadLaunch launch, string workDirectory, JobProcess server, string? nic,
        Iteration iteration, CancellationToken cancellationToken)
    {
        var samplingReady = new TaskCompletionSource<RunSampling>(TaskCreationOptions.RunContinuationsAsynchronously);
        SortedDictionary<string, double>? statistics = null;
        var blocks = new StatisticsBlockReader(json => statistics = StatisticsBlock.Parse(json)?.Values() ?? statistics);
        await using var load = JobProcess.Start(request.LoadJob.Main(launch, workDirectory), _session.Control, (line, isError) =>
        {
            if (isError)
            {
                return;
            }

            blocks.OnLine(line);
            if (LoadProtocol.Parse(line) is { } progress && samplingReady.Task.IsCompletedSuccessfully)
            {
                if (iteration.OnProgress(progress, launch.Load, request.LoadJob.RateUnit, _session.Warmth, _session.Observer))
                {
                    _session.GatedLoad = null;
                    StartTrace(request, server.Id, cancellationToken);
                }
            }
        });
        iteration.LastJitMilliseconds ??= _session.Warmth.Reports ? _session.Warmth.JitMilliseconds : null;
        if (launch.WarmupGate)
        {
            _session.GatedLoad = load;
        }

        // The counters join the samples once their session is open (it opens beside the server's start).
        var sampler = new MetricsSampler(_session.Metrics, nic, _session.CountersStart is null ? null : () => _session.Counters?.Snapshot(),
            server.Info.Limit is { } limit ? limit.Read : null, request.ServerCpus);
        var sampling = new RunSampling(sampler, server.Id, load.Id, _session.Database?.ProcessId ?? 0, _session.Proxy?.ProcessId ?? 0);
        iteration.Sampling = sampling;
        if (request.LoadJob.ReportsProgress && (launch.Load.Warmup > TimeSpan.Zero || launch.Load.WarmupMax is not null))
        {
            // The warm-up's seconds are sampled too: how the server got to its steady state (its CPU while the JIT works) is part of the answer.
            iteration.WarmupSampling = new RunSampling(sampler, server.Id, load.Id, _session.Database?.ProcessId ?? 0, _session.Proxy?.ProcessId ?? 0);
            iteration.WarmupSampling.StartWindow();
        }

        samplingReady.SetResult(sampling);
        if (!request.LoadJob.ReportsProgress)
        {
            sampling.StartWindow();
            StartTrace(request, server.Id, cancellationToken);
        }

        await SampleUntilExitAsync(sampling, server, load, request.LoadJob, cancellationToken);
        var (measurements, failure) = request.LoadJob.Collect(load, statistics);
        if (measurements is not null)
        {
            RunOutcome.Merge(iteration.Measurements, measurements);
        }

        iteration.Close();
        PerRequestCosts.Add(iteration.Measurements, MachineCpus.Count, launch.Load.Connections);
        if (_session.Warmth.Seen is { Processors: > 0 } seen)
        {
            // What the server's runtime made of its CPUs and memory (under limits: the quota rounded up, 75% of the memory limit).
            iteration.Measurements[LimitMeasures.Processors.Name] = seen.Processors;
            iteration.Measurements[LimitMeasures.HeapLimit.Name] = seen.MemoryLimitBytes / (1024.0 * 1024.0);
        }

        if (_session.CountersStart is { } opening && _session.CountersError is null && _session.Counters is not { Reports: > 0 })
        {
            // Asked for, and silent over the whole window (or not yet open when it ended): say so rather than leave the figures out without a word.
            _session.CountersError = !opening.IsCompleted ? "the server's runtime counters had not opened by the window's end: " +
                "this run has no runtime-counter/* figures"
                : _session.Counters?.Failure is { } stopped
                ? $"the server's runtime counters stopped ({stopped}): this run has no runtime-counter/* figures"
                : "the server's runtime counters sent nothing over the window (its diagnostics port answered): this run has no runtime-counter/* figures";
        }

        if (_session.CountersError is { } error)
        {
            _session.CountersError = null;
            _session.Observer.Note(error);
        }

        return failure;
    }

    /// <summary>Starts the run's one trace of the server at the first window's start, for <c>--trace</c>'s length but no longer than the window.</summary>
    private void StartTrace(RunRequest request, int serverProcessId, CancellationToken cancellationToken)
    {
        if (request.Trace is not { } wanted || _session.Trace is not null)
        {
            return;
        }

        var length = wanted < request.Load.Duration ? wanted : request.Load.Duration;
        var perf = request.Profiler == Documents.RunTrace.Perf;
        var path = Path.Combine(Path.GetTempPath(), $"benchmarks-trace-{Guid.NewGuid():N}{(perf ? ".perf.data" : ".nettrace")}");
        _session.Trace = (path, length, request.Profiler, serverProcessId, perf
            ? PerfTrace.RecordAsync(serverProcessId, path, length, cancellationToken)
            : EventPipeTrace.RecordAsync(serverProcessId, path, length, cancellationToken));
    }

    /// <summary>
    /// Waits for the load to finish. Samples come on the load's own second ticks when it reports
    /// them, otherwise on this process's clock.
    /// </summary>
    private async Task SampleUntilExitAsync(RunSampling sampling, JobProcess server, JobProcess load, ILoadJob loadJob, CancellationToken cancellationToken)
    {
        var loadReportsProgress = loadJob.ReportsProgress;
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        var proxyExited = _session.Proxy?.Exited ?? Task.Delay(Timeout.Infinite, cancellationToken);
        while (!load.HasExited && !server.HasExited && _session.Proxy is not { HasExited: true })
        {
            var tick = loadReportsProgress ? Task.Delay(Timeout.Infinite, cancellationToken) : timer.WaitForNextTickAsync(cancellationToken).AsTask();
            await Task.WhenAny(tick, load.Exited, server.Exited, proxyExited).WaitAsync(cancellationToken);
            if (tick.IsCompletedSuccessfully && !load.HasExited && sampling.Tick(double.NaN) is { } sample)
            {
                _session.Observer.WindowSecond(sample, loadJob.RateUnit);
            }
        }

        if ((server.HasExited || _session.Proxy is { HasExited: true }) && !load.HasExited)
        {
            // The server (or the proxy before it) died under load: stop the load now (it reports what it measured), keep the window so far.
            sampling.EndWindow();
            await load.StopAsync(JobProcess.StopGrace);
        }

        await load.Exited;
    }
}

using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Crank;
using Benchmarks.Host.Databases;
using Benchmarks.Host.Proxies;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Verify;
using Benchmarks.Load.Http;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Runs;

/// <summary>
/// One local run: the server and the load as child processes on separate CPUs, the machine
/// sampled every second of the measured window, and a run document that says what happened —
/// also when it failed, with what was measured before.
/// </summary>
internal sealed class RunCoordinator
{
    private readonly IRunObserver _observer;
    private readonly ISystemMetrics _metrics;
    private readonly IProcessControl _control;
    private ServerWarmth _warmth = new();
    private RunDatabase? _database;
    private ReverseProxy? _proxy;

    /// <summary>The server of the run, kept from one step to the next.</summary>
    private JobProcess? _server;

    /// <summary>The load process while its warm-up waits for the server's JIT, to be told when it is quiet.</summary>
    private volatile JobProcess? _gatedLoad;

    public RunCoordinator(IRunObserver observer, ISystemMetrics metrics, IProcessControl control)
    {
        _observer = observer;
        _metrics = metrics;
        _control = control;
    }

    /// <summary>Why the token was cancelled ("interrupted (Ctrl+C)", "terminated (SIGTERM)"), for the document's error; null when unknown.</summary>
    public Func<string?>? CancelReason { get; init; }

    public async Task<RunDocument> RunAsync(RunRequest request, CancellationToken cancellationToken)
    {
        RunDocument? last = null;
        await RunStepsAsync(request, (document, _) =>
        {
            last = document;
            return Task.FromResult<RunRequest?>(null);
        }, cancellationToken);
        return last!;
    }

    /// <summary>
    /// Runs <paramref name="request"/>, then whatever <paramref name="next"/> asks for after each
    /// step's document is judged, on the same server (started, verified and warmed up once) until
    /// it answers null or a step fails. A later step warms its own load by its
    /// <see cref="HttpLoadOptions.Warmup"/> before its window. Every step has a document of its own.
    /// </summary>
    public async Task RunStepsAsync(RunRequest request, Func<RunDocument, CancellationToken, Task<RunRequest?>> next, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(next);
        var workDirectory = RunWorkFolders.Create(_control);
        try
        {
            for (RunRequest? step = request; step is not null;)
            {
                var document = RunDocumentStart.For(step);
                var started = Stopwatch.GetTimestamp();
                try
                {
                    await ExecuteAsync(step, document, workDirectory, cancellationToken);
                }
                catch (RunFailedException ex)
                {
                    RunOutcome.Fail(document, ex.Message, ex.Output);
                }
                catch (OperationCanceledException)
                {
                    RunOutcome.Fail(document, CancelReason?.Invoke() is { } why ? $"the run was {why} before it finished" : "the run was cancelled before it finished");
                }
                finally
                {
                    document.DurationSeconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
                }

                RunVerdicts.Judge(document);
                var failed = document.Status != RunStatus.Succeeded;
                step = await next(document, cancellationToken);
                if (failed || _server is null || _server.HasExited || cancellationToken.IsCancellationRequested)
                {
                    break;
                }
            }
        }
        finally
        {
            if (_server is { } server)
            {
                _server = null;
                await server.StopAsync(JobProcess.StopGrace);
                await server.DisposeAsync();
            }

            await (_proxy?.DisposeAsync() ?? ValueTask.CompletedTask);
            await (_database?.DisposeAsync() ?? ValueTask.CompletedTask);

            Directory.Delete(workDirectory, recursive: true);
        }
    }

    /// <summary>One step: its iterations on the server an earlier step kept (or one it starts), which it leaves in <see cref="_server"/>.</summary>
    private async Task ExecuteAsync(RunRequest request, RunDocument document, string workDirectory, CancellationToken cancellationToken)
    {
        var server = _server;
        var kept = server is not null;
        Iteration? current = null;
        var iterations = new List<SortedDictionary<string, double>>();
        try
        {
            if (!kept)
            {
                _database = request.Scenario is Scenarios.IDatabaseScenario scenario ? await RunDatabases.OpenAsync(request, scenario, document, _control, _observer, cancellationToken) : null;
                _proxy = await RunProxies.OpenAsync(request, document, _control, _observer, cancellationToken);
            }
            else
            {
                document.Parameters["server-start"] = "kept warm from an earlier step";
            }

            string? nic = null;
            for (var number = 1; number <= request.Iterations; number++)
            {
                // A fresh server warms up before its first window; a kept one warms the step's load by its fixed warm-up;
                // later windows find the server warm, and give their new load process a short warm-up (Iteration.LaterWarmup).
                var fresh = server is null;
                server ??= await StartServerAsync(request, workDirectory, verify: number == 1 && !kept, cancellationToken);
                nic ??= NetworkInterfaceLocator.ForEndpoints([request.ServerUrl]);
                var stepWarmup = kept && number == 1;
                var launch = fresh
                    ? request.LoadLaunch with { WarmupGate = request.Load.WarmupMax is not null }
                    : stepWarmup
                        ? request.LoadLaunch with { Load = request.Load with { WarmupMax = null } }
                        : request.LoadLaunch with { Load = request.Load with { Warmup = Iteration.LaterWarmup(request.Load.Warmup), WarmupMax = null } };
                if (request.Iterations > 1)
                {
                    _observer.IterationStarted(number, request.Iterations, request.Restart);
                }

                current = new Iteration(request.Iterations > 1 ? number : null, document.Samples.Count > 0 ? document.Samples[^1].Time : 0);
                var failure = await MeasureAsync(request, launch, workDirectory, server, nic, current, cancellationToken);
                if (!fresh && !stepWarmup)
                {
                    // Only the load's own short warm-up in this window: it would dilute the warm-up's mean over the iterations,
                    // and its seconds do not show how the server reached its steady state.
                    current.Measurements.Remove(SystemMeasures.LoadWarmup.Name);
                    current.Measurements.Remove(SystemMeasures.LoadWarmupSteady.Name);
                    current.WarmupSamples.Clear();
                }

                current.MoveSamplesTo(document);
                iterations.Add(current.Measurements);
                current = null;
                if (_database?.Gone(_control) is { } gone)
                {
                    RunOutcome.Merge(document.Measurements, iterations[^1]);
                    throw new RunFailedException(new JobFailure(JobFailure.OneLine($"{gone}; the server said: {JobFailure.TellingLine(server.Tail) ?? "nothing"}"), server.Tail.Format(20)));
                }

                if (server.HasExited)
                {
                    RunOutcome.Merge(document.Measurements, iterations[^1]);
                    throw new RunFailedException(JobFailure.Exited("the server exited during the run", server));
                }

                if (_proxy?.Gone() is { } proxyGone)
                {
                    RunOutcome.Merge(document.Measurements, iterations[^1]);
                    throw new RunFailedException(proxyGone);
                }

                if (failure is not null)
                {
                    RunOutcome.Merge(document.Measurements, iterations[^1]);
                    throw new RunFailedException(failure);
                }

                if (request.Restart && number < request.Iterations)
                {
                    await server.StopAsync(JobProcess.StopGrace);
                    await server.DisposeAsync();
                    server = null;
                }
            }

            if (iterations.Count == 1)
            {
                RunOutcome.Merge(document.Measurements, iterations[0]);
            }
            else
            {
                IterationStatistics.Combine(document, iterations, request.Exclude, request.ExcludeOrder);
            }

            document.Status = RunStatus.Succeeded;
        }
        finally
        {
            _server = server;
            if (current is not null)
            {
                // An iteration cut short keeps what it measured.
                current.Close();
                current.MoveSamplesTo(document);
                RunOutcome.Merge(document.Measurements, current.Measurements);
            }
        }
    }

    /// <summary>Starts the server, waits until it is ready, checks it (the first time) and warms it up when the load warms up in a job of its own.</summary>
    private async Task<JobProcess> StartServerAsync(RunRequest request, string workDirectory, bool verify, CancellationToken cancellationToken)
    {
        var warmth = new ServerWarmth();
        _warmth = warmth;
        var server = ServerJob.Start(
            new ServerLaunch(request.Scenario.Name, request.ServerName, request.ServerUrl)
            {
                Options = request.ServerOptions,
                PluginDirectories = request.PluginDirectories,
                Cpus = request.ServerCpus,
                ReportRuntime = true,
                Environment = _database is null ? new Dictionary<string, string>() : new Dictionary<string, string> { [Scenarios.IDatabaseScenario.ConnectionVariable] = _database.ConnectionString },
            },
            _control,
            (line, isError) =>
            {
                if (!isError && RuntimeActivity.Parse(line) is { } activity)
                {
                    var now = Stopwatch.GetTimestamp();
                    warmth.Report(activity, now);
                    _gatedLoad?.TryWriteLine(LoadProtocol.ServerWarm(warmth.IsWarm(now)));
                }
            });
        try
        {
            if (await ServerJob.WaitUntilReadyAsync(server, request.StartTimeout, cancellationToken) is { } notReady)
            {
                throw new RunFailedException(notReady);
            }

            if (verify && request.Verify)
            {
                var report = await Verifier.VerifyAsync(request.Scenario, request.ProxyUrl ?? request.ServerUrl, cancellationToken, _database?.ConnectionString);
                if (!report.Passed)
                {
                    throw new RunFailedException($"the server failed verification: {report.FirstFailure}");
                }

                _observer.Verified(report.Checks.Count, request.Scenario is Scenarios.ITcpScenario ? "raw TCP" : "TechEmpower", [.. report.Checks.Where(c => c.Warning).Select(c => (c.Name, c.Detail))]);
            }

            _observer.ServerReady(request.ServerName, server.Id, request.ServerCpus, request.LoadJob.Describe(request.Load), request.LoadCpus);
            await WarmUpAsync(request, workDirectory, server, cancellationToken);
            return server;
        }
        catch
        {
            await server.StopAsync(JobProcess.StopGrace);
            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>One measured window: a load process, sampled each second; its measurements and samples go into <paramref name="iteration"/> as they come.</summary>
    private async Task<JobFailure?> MeasureAsync(RunRequest request, LoadLaunch launch, string workDirectory, JobProcess server, string? nic, Iteration iteration, CancellationToken cancellationToken)
    {
        var samplingReady = new TaskCompletionSource<RunSampling>(TaskCreationOptions.RunContinuationsAsynchronously);
        SortedDictionary<string, double>? statistics = null;
        var blocks = new StatisticsBlockReader(json => statistics = StatisticsBlock.Parse(json)?.Values() ?? statistics);
        await using var load = JobProcess.Start(request.LoadJob.Main(launch, workDirectory), _control, (line, isError) =>
        {
            if (isError)
            {
                return;
            }

            blocks.OnLine(line);
            if (LoadProtocol.Parse(line) is { } progress && samplingReady.Task.IsCompletedSuccessfully)
            {
                if (iteration.OnProgress(progress, launch.Load, request.LoadJob.RateUnit, _warmth, _observer))
                {
                    _gatedLoad = null;
                }
            }
        });
        iteration.LastJitMilliseconds ??= _warmth.Reports ? _warmth.JitMilliseconds : null;
        if (launch.WarmupGate)
        {
            _gatedLoad = load;
        }

        var sampler = new MetricsSampler(_metrics, nic);
        var sampling = new RunSampling(sampler, server.Id, load.Id, _database?.ProcessId ?? 0, _proxy?.ProcessId ?? 0);
        iteration.Sampling = sampling;
        if (request.LoadJob.ReportsProgress && (launch.Load.Warmup > TimeSpan.Zero || launch.Load.WarmupMax is not null))
        {
            // The warm-up's seconds are sampled too: how the server got to its steady state (its CPU while the JIT works) is part of the answer.
            iteration.WarmupSampling = new RunSampling(sampler, server.Id, load.Id, _database?.ProcessId ?? 0, _proxy?.ProcessId ?? 0);
            iteration.WarmupSampling.StartWindow();
        }

        samplingReady.SetResult(sampling);
        if (!request.LoadJob.ReportsProgress)
        {
            sampling.StartWindow();
        }

        await SampleUntilExitAsync(sampling, server, load, request.LoadJob, cancellationToken);
        var (measurements, failure) = request.LoadJob.Collect(load, statistics);
        if (measurements is not null)
        {
            RunOutcome.Merge(iteration.Measurements, measurements);
        }

        iteration.Close();
        return failure;
    }

    private async Task WarmUpAsync(RunRequest request, string workDirectory, JobProcess server, CancellationToken cancellationToken)
    {
        if (request.LoadJob.Warmup(request.LoadLaunch, workDirectory) is not { } warmup)
        {
            return;
        }

        _observer.WarmupRun(request.Load.Warmup, warmup.Name);
        await using var job = JobProcess.Start(warmup, _control);
        await Task.WhenAny(job.Exited, server.Exited).WaitAsync(cancellationToken);
        if (server.HasExited)
        {
            await job.StopAsync(JobProcess.StopGrace);
            throw new RunFailedException(JobFailure.Exited("the server exited during the warm-up", server));
        }

        if (job.ExitCode != 0)
        {
            throw new RunFailedException(JobFailure.Exited("the warm-up exited", job));
        }
    }

    /// <summary>
    /// Waits for the load to finish. Samples come on the load's own second ticks when it reports
    /// them, otherwise on this process's clock.
    /// </summary>
    private async Task SampleUntilExitAsync(RunSampling sampling, JobProcess server, JobProcess load, ILoadJob loadJob, CancellationToken cancellationToken)
    {
        var loadReportsProgress = loadJob.ReportsProgress;
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        var proxyExited = _proxy?.Exited ?? Task.Delay(Timeout.Infinite, cancellationToken);
        while (!load.HasExited && !server.HasExited && _proxy is not { HasExited: true })
        {
            var tick = loadReportsProgress ? Task.Delay(Timeout.Infinite, cancellationToken) : timer.WaitForNextTickAsync(cancellationToken).AsTask();
            await Task.WhenAny(tick, load.Exited, server.Exited, proxyExited).WaitAsync(cancellationToken);
            if (tick.IsCompletedSuccessfully && !load.HasExited && sampling.Tick(double.NaN) is { } sample)
            {
                _observer.WindowSecond(sample, loadJob.RateUnit);
            }
        }

        if ((server.HasExited || _proxy is { HasExited: true }) && !load.HasExited)
        {
            // The server (or the proxy before it) died under load: stop the load now (it reports what it measured), keep the window so far.
            sampling.EndWindow();
            await load.StopAsync(JobProcess.StopGrace);
        }

        await load.Exited;
    }

}

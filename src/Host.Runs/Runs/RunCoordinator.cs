using System.Diagnostics;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Verdicts;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Runs;

/// <summary>
/// One local run: the server and the load as child processes on separate CPUs, the machine
/// sampled every second of the measured window, and a run document that says what happened —
/// also when it failed, with what was measured before. This is the loop over steps and
/// iterations; the server's start, check and warm-up are <see cref="ServerSession"/>'s, each
/// window <see cref="LoadWindow"/>'s, and what they share <see cref="RunSession"/>'s.
/// </summary>
internal sealed class RunCoordinator
{
    private readonly RunSession _session;
    private readonly ServerSession _servers;
    private readonly LoadWindow _windows;

    /// <summary>The server of the run, kept from one step to the next.</summary>
    private JobProcess? _server;

    /// <summary>A coordinator of runs on this machine: its OS's metrics and process control.</summary>
    public RunCoordinator(IRunObserver observer)
        : this(observer, SystemMetrics.Create(), OsPlatform.CreateProcessControl())
    {
    }

    public RunCoordinator(IRunObserver observer, ISystemMetrics metrics, IProcessControl control)
    {
        _session = new RunSession(observer, metrics, control);
        _servers = new ServerSession(_session);
        _windows = new LoadWindow(_session);
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
        var workDirectory = RunWorkFolders.Create(_session.Control);
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
                    RunOutcome.Fail(document,
                        CancelReason?.Invoke() is { } why ? $"the run was {why} before it finished" : "the run was cancelled before it finished");
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
                await _servers.StopAsync(server);
            }

            await (_session.Proxy?.DisposeAsync() ?? ValueTask.CompletedTask);
            await (_session.Database?.DisposeAsync() ?? ValueTask.CompletedTask);

            Directory.Delete(workDirectory, recursive: true);
        }
    }

    /// <summary>One step: its iterations on the server an earlier step kept (or one it starts), which it leaves in <see cref="_server"/>.</summary>
    private async Task ExecuteAsync(RunRequest request, RunDocument document, string workDirectory, CancellationToken cancellationToken)
    {
        var server = _server;
        var kept = server is not null;
        Iteration? current = null;
        _session.Trace = null;
        var iterations = new List<SortedDictionary<string, double>>();
        try
        {
            if (!kept)
            {
                _session.Database = request.Scenario is Scenarios.IDatabaseScenario scenario
                    ? await RunDatabases.OpenAsync(request, scenario, document, _session.Control, _session.Observer, cancellationToken)
                    : null;
                _session.Proxy = await RunProxies.OpenAsync(request, document, _session.Control, _session.Observer, cancellationToken);
            }
            else
            {
                document.Parameters["server-start"] = "kept warm from an earlier step";
            }

            if (request.Startup > 0)
            {
                await StartupSeriesAsync(request, document, workDirectory, cancellationToken);
                return;
            }

            string? nic = null;
            for (var number = 1; number <= request.Iterations; number++)
            {
                // A fresh server warms up before its first window; a kept one warms the step's load by its fixed warm-up;
                // later windows find the server warm, and give their new load process a short warm-up (Iteration.LaterWarmup).
                var fresh = server is null;
                server ??= await _servers.StartAsync(request, workDirectory, verify: number == 1 && !kept, cancellationToken);
                if (nic is null && NetworkInterfaceLocator.ForEndpoints([request.ServerUrl]) is { } located)
                {
                    nic = located;
                    document.Environment.Network = NetworkInterfaceLocator.Describe(located, _session.Metrics.ReadLinkCapacity(located));
                }

                var stepWarmup = kept && number == 1;
                var launch = fresh
                    ? request.LoadLaunch with { WarmupGate = request.Load.WarmupMax is not null }
                    : stepWarmup
                        ? request.LoadLaunch with { Load = request.Load with { WarmupMax = null } }
                        : request.LoadLaunch with { Load = request.Load with { Warmup = Iteration.LaterWarmup(request.Load.Warmup), WarmupMax = null } };
                if (request.Iterations > 1)
                {
                    _session.Observer.IterationStarted(number, request.Iterations, request.Restart);
                }

                current = new Iteration(request.Iterations > 1 ? number : null, document.Samples.Count > 0 ? document.Samples[^1].Time : 0);
                if (fresh && _session.Startup is { } startup)
                {
                    // A fresh server's start belongs to the iteration it starts (with --restart, each has one: their spread is start-up's).
                    RunOutcome.Merge(current.Measurements, startup);
                }

                var failure = await _windows.MeasureAsync(request, launch, workDirectory, server, nic, current, cancellationToken);
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
                if (_session.Database?.Gone(_session.Control) is { } gone)
                {
                    RunOutcome.Merge(document.Measurements, iterations[^1]);
                    throw new RunFailedException(new JobFailure(
                        JobFailure.OneLine($"{gone}; the server said: {JobFailure.TellingLine(server.Tail) ?? "nothing"}"), server.Tail.Format(20)));
                }

                if (server.HasExited)
                {
                    RunOutcome.Merge(document.Measurements, iterations[^1]);
                    throw new RunFailedException(JobFailure.Exited("the server exited during the run", server));
                }

                if (_session.Proxy?.Gone() is { } proxyGone)
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
                    await _servers.StopAsync(server);
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
            if (_session.ServerRuntime is { } ran)
            {
                document.Environment.ServerRuntime = new SortedDictionary<string, string>(ran.Values.ToDictionary(), StringComparer.Ordinal);
            }

            await FinishTraceAsync(document);
            if (current is not null)
            {
                // An iteration cut short keeps what it measured.
                current.Close();
                current.MoveSamplesTo(document);
                RunOutcome.Merge(document.Measurements, current.Measurements);
            }
        }
    }

    /// <summary>
    /// <c>run --startup N</c>: N fresh starts of the server, each measured to its first response and
    /// stopped (the first one checked, none loaded); each start is an iteration, so the document
    /// gives each figure's mean, median and spread over them.
    /// </summary>
    private async Task StartupSeriesAsync(RunRequest request, RunDocument document, string workDirectory, CancellationToken cancellationToken)
    {
        var starts = new List<SortedDictionary<string, double>>();
        for (var number = 1; number <= request.Startup; number++)
        {
            var server = await _servers.StartAsync(request, workDirectory, verify: number == 1, cancellationToken, warmUp: false);
            try
            {
                starts.Add(new SortedDictionary<string, double>(_session.Startup ?? [], StringComparer.Ordinal));
                _session.Observer.Note(StartupLine(number, request.Startup, starts[^1]));
            }
            finally
            {
                await _servers.StopAsync(server);
            }
        }

        if (starts.Count == 1)
        {
            RunOutcome.Merge(document.Measurements, starts[0]);
        }
        else
        {
            IterationStatistics.Combine(document, starts);
        }

        document.Status = RunStatus.Succeeded;
    }

    private static string StartupLine(int number, int count, SortedDictionary<string, double> start) => string.Create(
        System.Globalization.CultureInfo.InvariantCulture,
        $"start {number}/{count}: ready in {start.GetValueOrDefault(SystemMeasures.StartTime.Name):n0} ms, " +
        $"first response at {start.GetValueOrDefault(StartupMeasures.FirstResponse.Name):n0} ms " +
        $"({start.GetValueOrDefault(StartupMeasures.FirstRequest.Name):0.#} ms for the request), {start.GetValueOrDefault(StartupMeasures.Cpu.Name):n0} ms " +
        $"CPU, {start.GetValueOrDefault(StartupMeasures.WorkingSetAtRest.Name):0} MB at " +
        $"rest{(start.TryGetValue(StartupMeasures.PrivateWorkingSetAtRest.Name, out var own) ? $" ({own:0} MB private)" : "")}");

    /// <summary>Waits for the trace of the server to be written and reads its hot methods into the run (its file is stored beside the run).</summary>
    private async Task FinishTraceAsync(RunDocument document)
    {
        if (_session.Trace is not { } trace)
        {
            return;
        }

        _session.Trace = null;
        var kept = false;
        try
        {
            if (await trace.Recording is { } error)
            {
                _session.Observer.Note(error);
                return;
            }

            if (trace.Profiler == RunTrace.Perf)
            {
                // The recording is read into folded stacks, kept beside the run; perf's data file and the server's perf map go.
                var folded = Path.ChangeExtension(trace.Path, null).Replace(".perf", "", StringComparison.Ordinal) + ".folded";
                document.Trace = await PerfProfile.AnalyzeAsync(trace.Path, folded, trace.Length.TotalSeconds, CancellationToken.None);
                document.Trace.File = folded;
                document.Parameters["profiler"] = RunTrace.Perf;
            }
            else
            {
                document.Trace = TraceProfile.Analyze(trace.Path, trace.Length.TotalSeconds);
                document.Trace.File = trace.Path;
                kept = true;
            }

            document.Parameters["trace"] = Cli.DurationParser.Format(trace.Length);
        }
        catch (Exception ex) when (ex is not (OutOfMemoryException or StackOverflowException))
        {
            // Whatever the trace's reader met (a file cut short by a server that died, a full disk), the run is stored: the trace's failure is a note.
            _session.Observer.Note($"the trace of process {trace.ProcessId} could not be read: {Jobs.JobFailure.OneLine(ex.Message)}");
        }
        finally
        {
            // A trace is kept only as the run's own file (an EventPipe trace that was read); perf's data and the JIT map always go.
            if (!kept)
            {
                TryDelete(trace.Path);
            }

            if (trace.Profiler == RunTrace.Perf)
            {
                PerfTrace.DeleteMap(trace.ProcessId);
            }
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Left for the temporary folder's own clean-up.
        }
    }
}

using System.Diagnostics;
using System.Globalization;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Verify;

namespace Benchmarks.Host.Runs;

/// <summary>
/// A run's server: started on its CPUs, waited for until ready, checked the first time, and warmed
/// up when the load warms up in a job of its own.
/// </summary>
internal sealed class ServerSession(RunSession session)
{
    private readonly RunSession _session = session;
    private static int s_limits;

    /// <summary>Starts the server, waits until it is ready, checks it (the first time) and warms it up when the load warms up in a job of its own.</summary>
    /// <param name="warmUp">Warm it up with the load's warm-up job (when the load has one); false:
    /// started, checked and measured only (<c>run --startup</c>).</param>
    public async Task<JobProcess> StartAsync(RunRequest request, string workDirectory, bool verify, CancellationToken cancellationToken, bool warmUp = true)
    {
        var warmth = new ServerWarmth();
        _session.Warmth = warmth;
        _session.Startup = null;
        _session.ServerRuntime = null;
        string? dotnetRoot = null;
        if (request.RuntimeVersion is { } version)
        {
            try
            {
                dotnetRoot = await RuntimePatch.EnsureAsync(version, cancellationToken);
            }
            catch (Exception ex) when (ex is InvalidOperationException or IOException or UnauthorizedAccessException or System.ComponentModel.Win32Exception)
            {
                throw new RunFailedException(ex.Message);
            }
        }

        string? native = null;
        _session.PublishedBytes = request.JitBytes;
        if (request.Native is { } plan)
        {
            try
            {
                var program = await NativeServerBuild.EnsureAsync(plan, cancellationToken);
                native = program.Executable;
                _session.PublishedBytes = program.Bytes;
                if (program.PublishedIn is { } took)
                {
                    _session.Observer.Note(string.Create(CultureInfo.InvariantCulture,
                        $"{plan.Compilation} server published in {took.TotalSeconds:0} s: {program.Executable} ({program.Bytes / 1048576.0:0.0} MB)"));
                }
                else if (_session.ProgramNoted != program.Executable)
                {
                    _session.Observer.Note(string.Create(CultureInfo.InvariantCulture,
                        $"{plan.Compilation} server: {program.Executable} ({program.Bytes / 1048576.0:0.0} MB, published before)"));
                }

                _session.ProgramNoted = program.Executable;
            }
            catch (Exception ex) when (ex is InvalidOperationException or IOException or UnauthorizedAccessException or System.ComponentModel.Win32Exception)
            {
                throw new RunFailedException(ex.Message);
            }
        }

        var started = Stopwatch.GetTimestamp();
        var server = ServerJob.Start(
            new ServerLaunch(request.Scenario.Name, request.ServerName, request.ServerUrl)
            {
                Options = request.ServerOptions,
                PluginDirectories = request.PluginDirectories,
                Cpus = request.ServerCpus,
                Limit = Limit(request),
                ReportRuntime = true,
                Wire = request.Wire,
                Certificate = request.Certificate,
                CertificateKey = request.CertificateKey,
                Environment = Environment(request),
                DotnetRoot = dotnetRoot,
                Program = native,
            },
            _session.Control,
            (line, isError) =>
            {
                if (!isError && RuntimeConfiguration.Parse(line) is { } ran)
                {
                    _session.ServerRuntime = ran;
                }
                else if (!isError && RuntimeActivity.Parse(line) is { } activity)
                {
                    var now = Stopwatch.GetTimestamp();
                    warmth.Report(activity, now);
                    _session.GatedLoad?.TryWriteLine(LoadProtocol.ServerWarm(warmth.IsWarm(now)));
                }
            });
        try
        {
            if (await ServerJob.WaitUntilReadyAsync(server, request.StartTimeout, cancellationToken) is { } notReady)
            {
                throw new RunFailedException(notReady);
            }

            // The runtime's settings are checked against what the server says it runs with before anything is measured.
            if (request.Runtime.Count > 0 || request.RuntimeVersion is not null || request.Publish is not null)
            {
                var notTaken = _session.ServerRuntime is not { } ran
                    ? "the server did not report its runtime (#runtime-config), so its runtime settings cannot be checked"
                    : request.RuntimeVersion is { } asked && ran["version"] != asked
                        ? $"--runtime-version {asked} did not take effect: the server's runtime reports version={ran["version"]}"
                        : request.Publish is { } publish && ran["compiled"] is { } compiled && compiled != publish
                        ? $"--publish {publish} did not take effect: the server's runtime reports compiled={compiled}"
                        : RuntimeSettings.NotTaken(request.Runtime, ran);
                if (notTaken is not null)
                {
                    throw new RunFailedException(notTaken);
                }
            }

            // Its start, measured before anything else talks to it: the first request is the server's first.
            _session.Startup = await ServerStartup.MeasureAsync(request, server, started, Stopwatch.GetTimestamp(), _session.Metrics, cancellationToken);
            if (_session.PublishedBytes is { } bytes)
            {
                _session.Startup[Measurements.SystemMeasures.PublishedSize.Name] = bytes / 1024.0;
            }

            if (verify && request.Verify)
            {
                var report = await Verifier.VerifyAsync(request.Scenario, request.ProxyUrl ?? request.ServerUrl, cancellationToken,
                    _session.Database?.ConnectionString, request.ProxyUrl is null ? request.Wire : null);
                if (!report.Passed)
                {
                    throw new RunFailedException($"the server failed verification: {report.FirstFailure}");
                }

                _session.Observer.Verified(report.Checks.Count,
                    request.Scenario switch { Scenarios.ITcpScenario => "raw TCP", { Load.GrpcMessage: not null } => "gRPC", _ => "TechEmpower" },
                    [.. report.Checks.Where(c => c.Warning).Select(c => (c.Name, c.Detail))]);
            }

            if (request.RuntimeCounters && warmUp)
            {
                _session.CountersStart = StartCountersAsync(server.Id, cancellationToken);
            }

            if (warmUp)
            {
                _session.Observer.ServerReady(request.ServerName, server.Id, request.ServerCpus, request.LoadJob.Describe(request.Load), request.LoadCpus);
                await WarmUpAsync(request, workDirectory, server, cancellationToken);
            }

            return server;
        }
        catch
        {
            await StopAsync(server);
            throw;
        }
    }

    /// <summary>The server's CPU quota and memory limit, a fresh one for each server the run starts; null when none is asked.</summary>
    private static IResourceLimit? Limit(RunRequest request)
    {
        if (request.ServerCpuLimit is null && request.ServerMemoryLimit is null)
        {
            return null;
        }

        try
        {
            return ResourceLimits.Create($"server{Interlocked.Increment(ref s_limits).ToString(CultureInfo.InvariantCulture)}", request.ServerCpuLimit,
                request.ServerMemoryLimit);
        }
        catch (InvalidOperationException ex)
        {
            throw new RunFailedException(ex.Message);
        }
    }

    /// <summary>Stops the server and the counter session on it.</summary>
    public async Task StopAsync(JobProcess server)
    {
        if (_session.CountersStart is { } start)
        {
            _session.CountersStart = null;
            if (await start.ContinueWith(static t => t.IsCompletedSuccessfully ? t.Result : null, CancellationToken.None, TaskContinuationOptions.None,
                TaskScheduler.Default) is { } counters)
            {
                await counters.DisposeAsync();
            }
        }

        var processId = server.Id;
        await server.StopAsync(JobProcess.StopGrace);
        await server.DisposeAsync();

        // A server started for perf wrote its JIT map; the traced one's is removed once its trace is read, any other's now
        // (one that never became ready, an iteration's before or after the traced one).
        var traced = _session.Trace is { } trace && trace.ProcessId == processId;
        if (server.Info.Environment.ContainsKey("DOTNET_PerfMapEnabled") && !traced)
        {
            PerfTrace.DeleteMap(processId);
        }
    }

    private async Task WarmUpAsync(RunRequest request, string workDirectory, JobProcess server, CancellationToken cancellationToken)
    {
        if (request.LoadJob.Warmup(request.LoadLaunch, workDirectory) is not { } warmup)
        {
            return;
        }

        _session.Observer.WarmupRun(request.Load.Warmup, warmup.Name);
        await using var job = JobProcess.Start(warmup, _session.Control);
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
    /// The server's environment: the database's connection string for a database scenario, and for
    /// a perf trace what lets perf name the JIT's code (<see cref="PerfTrace.Environment"/>).
    /// </summary>
    private Dictionary<string, string> Environment(RunRequest request)
    {
        var environment = new Dictionary<string, string>(StringComparer.Ordinal);
        if (_session.Database is { } database)
        {
            environment[Scenarios.IDatabaseScenario.ConnectionVariable] = database.ConnectionString;
        }

        foreach (var (name, value) in RuntimeSettings.Environment(request.Runtime))
        {
            environment[name] = value;
        }

        if (request.Trace is not null && request.Profiler == Documents.RunTrace.Perf)
        {
            foreach (var (name, value) in PerfTrace.Environment)
            {
                environment[name] = value;
            }
        }

        return environment;
    }

    /// <summary>
    /// Opens the counter session out of process (the runtime's counters, and Kestrel's meter where
    /// the server has it), as dotnet-counters reads them, four reports a second (a second's
    /// sample then counts its own increments to within a quarter of a second); a server that is not .NET, or has no
    /// diagnostics port, has none, and the reason is kept to be said.
    /// </summary>
    private async Task<RuntimeCounterSession?> StartCountersAsync(int processId, CancellationToken cancellationToken)
    {
        var (counters, error) = await RuntimeCounterSession.StartAsync(processId, [RuntimeCounterSession.RuntimeProvider], intervalSeconds: 0.25,
            cancellationToken, meters: Measurements.ServerCounterMeasures.Meters, threadPoolAdjustments: true);
        _session.CountersError = error;
        return counters;
    }
}

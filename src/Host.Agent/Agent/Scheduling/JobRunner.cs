using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Building;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Files;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Crank;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Verdicts;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// Runs one started job: build, start, readiness (ready text on stdout or stderr, console
/// app, or the port accepting connections), measurements while it runs, and the end —
/// its own exit (Stopped or Failed with the output's tail) or a stop (SIGTERM, SIGINT, kill).
/// </summary>
internal sealed class JobRunner(JobBuilder builder, BuildCache cache, IProcessControl control, ISystemMetrics metrics, AgentOptions options, ILogger logger)
{
    private readonly RecentLoads _loads = new();

    private const string ChildProcessPrefix = "##ChildProcessId:";

    /// <summary>The failure of a job stopped or deleted before it ran: not a fault of its build.</summary>
    private const string StoppedBeforeStart = "the job was stopped before it started";

    private static readonly TimeSpan DefaultStartTimeout = TimeSpan.FromMinutes(3);

    /// <summary>Longest a started job waits for its controller to read its state before it goes on anyway.</summary>
    private static readonly TimeSpan WaitingShownFor = TimeSpan.FromSeconds(1);

    /// <summary>
    /// crank's state sequence: Waiting from <c>/start</c> through the build, Starting while the
    /// process comes up, Running once it is ready, then Stopped or Failed.
    /// </summary>
    public async Task RunAsync(AgentJob job)
    {
        ArgumentNullException.ThrowIfNull(job);
        var stop = job.StopSource.Token;
        JobProcess? process = null;
        JobBuild? build = null;
        JobSpec? spec = null;
        var ready = false;
        var afterRan = false;

        // crank's afterScript, once, after the process and before the job says Stopped: crank reads the output once it
        // sees Stopped, and the script's lines must be in it.
        async Task AfterScriptAsync()
        {
            if (afterRan || process is null || spec?.AfterScript is not { } after || build is null)
            {
                return;
            }

            afterRan = true;
            await StopProcessAsync(job, process);
            if (await JobScripts.RunAsync(job, "afterScript", after, build.WorkingDirectory, control, CancellationToken.None) is { } afterFailed)
            {
                job.Output.Add("[agent] " + afterFailed);
            }
        }

        try
        {
            // crank sees a job start by its state changing to Running; with a cached build a job
            // can be ready within milliseconds, so it is held until Waiting has been read.
            await Task.WhenAny(job.WaitingSeen, Task.Delay(WaitingShownFor, stop));
            stop.ThrowIfCancellationRequested();
            spec = job.Read(JobSpec.Read);
            JobLimits.Check(spec);
            build = await builder.BuildAsync(job, spec, stop);
            job.PublishedDirectory = build.OutputDirectory;
            job.ProjectDirectory = build.ProjectDirectory;
            job.BuildTime = build.Duration;
            job.AddMetadata(CrankMetadata.For(SystemMeasures.BuildTime.Name));
            job.AddMeasurement(SystemMeasures.BuildTime.Name, build.Duration.TotalMilliseconds);
            if (build.OutputDirectory is { } published && Directory.Exists(published))
            {
                job.AddMetadata(CrankMetadata.For(SystemMeasures.PublishedSize.Name));
                job.AddMeasurement(SystemMeasures.PublishedSize.Name,
                    new DirectoryInfo(published).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length) / 1024.0);
            }
            ExtractOutputAttachments(job);
            if (spec.CollectDependencies)
            {
                // A published project's folder; for an executable job, the folder of the program it runs.
                job.Dependencies = PublishedDependencies.Collect(build.OutputDirectory
                    ?? (Path.IsPathRooted(build.FileName) ? Path.GetDirectoryName(build.FileName) : null)
                    ?? build.WorkingDirectory);
            }

            if (spec.BeforeScript is { } before && await JobScripts.RunAsync(job, "beforeScript", before, build.WorkingDirectory, control, stop) is { } notRun)
            {
                throw new JobFailedException(notRun);
            }

            if (!job.TryMove(AgentJobState.Starting, AgentJobState.Waiting))
            {
                return;
            }

            var startTimeout = spec.StartTimeout ?? DefaultStartTimeout;
            var started = Stopwatch.StartNew();
            process = Start(job, spec, build, () => started.Restart());
            job.ProcessId = process.Id;
            await File.WriteAllTextAsync(AgentJobFolders.ProcessFile(job), ProcessRecord(process.Id), CancellationToken.None);
            AgentLog.ProcessStarted(logger, job.Id, job.Service, process.Id, process.Info.CommandLine);

            if (!await WaitUntilReadyAsync(job, spec, process, startTimeout, AfterScriptAsync, stop))
            {
                return;
            }

            ready = true;
            job.SetUrl(JobUrl(spec));
            job.AddMetadata(CrankMetadata.For(SystemMeasures.StartTime.Name));
            job.AddMeasurement(SystemMeasures.StartTime.Name, started.Elapsed.TotalMilliseconds);
            if (!job.TryMove(AgentJobState.Running, AgentJobState.Starting))
            {
                return;
            }

            AgentLog.JobRunning(logger, job.Id, job.Service);
            StartTrace(job, spec);
            using var sampling = CancellationTokenSource.CreateLinkedTokenSource(stop);
            var confined = MachineCpus.Confined();
            // A server's CPUs (its cpuSet, else its agent's box): their idle is sampled and its verdict judged on them.
            var cpus = spec.IsConsoleApp ? null : process.Info.Cpus ?? confined;
            var measurements = new AgentMeasurements(job, metrics, options.InterfaceName ?? NetworkInterfaceLocator.ForEndpoints(spec.Endpoints),
                process.Info.Limit, options.LinkCapacity, cpus);
            var sampler = measurements.RunAsync(spec.MeasurementsInterval, spec.CounterProviders, spec.CounterNames, sampling.Token);
            try
            {
                await process.Exited.WaitAsync(stop);
            }
            catch (OperationCanceledException)
            {
            }

            await sampling.CancelAsync();
            await sampler;
            if (spec.IsConsoleApp)
            {
                _loads.Keep(job.RunId, measurements.Samples, CpusOf(spec) ?? confined);
            }
            else
            {
                try
                {
                    AddVerdict(job, measurements.Samples, cpus, confined, _loads.Of(job.RunId));
                }
                catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or KeyNotFoundException or ArithmeticException
                    or FormatException)
                {
                    // The verdict is judged after the figures are in: a fault in judging them loses none of them.
                    job.Output.Add($"[agent] no verdict: {ex.Message}");
                }
            }

            if (spec.DumpProcess && job.StopSource.IsCancellationRequested && !process.HasExited)
            {
                // crank's dumpProcess: the process as it is when the controller stops it.
                job.Dump = await ProcessDump.WriteAsync(job.TrackedProcessId, spec.DumpType, Path.Combine(job.Directory, "dump.dmp"));
            }

            await EndAsync(job, process, AfterScriptAsync);
        }
        catch (JobFailedException ex)
        {
            AgentLog.JobFailed(logger, job.Id, job.Service, FirstLine(ex.Message));
            job.Fail(ex.Message);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // Stopped or deleted before it ran: a build was cancelled.
            if (job.State is AgentJobState.Starting or AgentJobState.Waiting)
            {
                job.Fail(StoppedBeforeStart);
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException or ArgumentException or JobPathException
            or InvalidDataException or System.ComponentModel.Win32Exception or System.Text.Json.JsonException)
        {
            AgentLog.JobFailed(logger, job.Id, job.Service, ex.Message);
            job.Fail(ex.Message);
        }
        finally
        {
            if (process is not null)
            {
                await StopProcessAsync(job, process);
                await AfterScriptAsync();
                await process.DisposeAsync();
            }

            // A shared build that its job could not start from (it exited or hung before it was
            // ready) is not offered again: the next job with the same sources publishes anew. Read
            // from the failure the job recorded, not its state, which a delete that followed the
            // failure at once has already moved on.
            if (!ready && job.Error is { } error && error != StoppedBeforeStart && build?.CacheKey is { } key && cache.Invalidate(key))
            {
                AgentLog.BuildDropped(logger, job.Id, job.Service, key);
            }

            if (stop.IsCancellationRequested)
            {
                job.TryMove(AgentJobState.Stopped, AgentJobState.Starting, AgentJobState.Running, AgentJobState.Stopping);
            }
        }
    }

    private JobProcess Start(AgentJob job, JobSpec spec, JobBuild build, Action restartStopwatch)
    {
        var arguments = new List<string>(build.LeadingArguments);
        arguments.AddRange(CommandLineSplitter.Split(spec.Arguments));
        var environment = new Dictionary<string, string>(spec.EnvironmentVariables)
        {
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
        };
        var statistics = new StatisticsBlockReader(json =>
        {
            if (!JobStatistics.Apply(job, json))
            {
                AgentLog.BadStatistics(logger, job.Id, job.Service);
            }
        });
        var info = new JobStartInfo(job.Service, build.FileName, arguments) { WorkingDirectory = build.WorkingDirectory, Environment = environment,
            Cpus = CpusOf(spec), Limit = JobLimits.Create(job.Id, spec) };
        var root = 0;
        var process = JobProcess.Start(info, control, (line, isError) =>
        {
            if (isError)
            {
                job.Output.Add("[STDERR] " + line);
                if (line.StartsWith(ChildProcessPrefix, StringComparison.Ordinal)
                    && int.TryParse(line.AsSpan(ChildProcessPrefix.Length).Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var child))
                {
                    // Only the job's own process or one it started may be named: the agent signals, dumps, traces and
                    // measures the process named, and a job naming the agent's pid had 'stop' end the agent itself.
                    SpinWait.SpinUntil(() => Volatile.Read(ref root) != 0, TimeSpan.FromSeconds(1));
                    if (IsDescendant(child, Volatile.Read(ref root)))
                    {
                        job.ChildProcessId = child;
                        restartStopwatch();
                    }
                    else
                    {
                        AgentLog.ForeignChildProcess(logger, job.Id, job.Service, child);
                        job.Output.Add($"[AGENT] ##ChildProcessId {child} ignored: not a process this job started");
                    }
                }

                return;
            }

            job.Output.Add(line);
            statistics.OnLine(line);
            AgentRuntimeReport.Apply(job, line);
        });
        Volatile.Write(ref root, process.Id);
        return process;
    }

    /// <summary>Whether <paramref name="processId"/> is <paramref name="root"/> or one of its descendants, now.</summary>
    private bool IsDescendant(int processId, int root)
    {
        if (root <= 0 || processId <= 1)
        {
            return false;
        }

        var current = processId;
        for (var depth = 0; depth < 64; depth++)
        {
            if (current == root)
            {
                return true;
            }

            if (control.ParentOf(current) is not { } parent || parent <= 1 || parent == current)
            {
                return false;
            }

            current = parent;
        }

        return false;
    }

    /// <summary>True when the job is ready; false when it ended first (its state then says how).</summary>
    private async Task<bool> WaitUntilReadyAsync(AgentJob job, JobSpec spec, JobProcess process, TimeSpan timeout, Func<Task> afterScript,
        CancellationToken stop)
    {
        var readiness = !string.IsNullOrEmpty(spec.ReadyStateText) ? Readiness.OnLine(spec.ReadyStateText)
            : spec.IsConsoleApp ? Readiness.Immediate
            : Readiness.OnPort(spec.Port);
        switch (await readiness.WaitAsync(process, timeout, stop))
        {
            case ReadinessOutcome.Ready:
                return true;
            case ReadinessOutcome.Cancelled:
                return false;
            case ReadinessOutcome.Exited:
                await EndAsync(job, process, afterScript);
                return false;
            default:
                throw new JobFailedException($"the job was not ready within {timeout}{readiness.Describe()}:{Environment.NewLine}{job.Output.Tail(20)}");
        }
    }

    private async Task EndAsync(AgentJob job, JobProcess process, Func<Task> afterScript)
    {
        if (job.StopSource.IsCancellationRequested && !process.HasExited)
        {
            await StopProcessAsync(job, process);
            await afterScript();
            job.TryMove(AgentJobState.Stopped, AgentJobState.Running, AgentJobState.Stopping, AgentJobState.Starting);
            return;
        }

        await process.Exited;
        job.ExitCode = process.ExitCode;
        if (job.StopSource.IsCancellationRequested || process.ExitCode == 0)
        {
            await afterScript();
            job.TryMove(AgentJobState.Stopped, AgentJobState.Running, AgentJobState.Stopping, AgentJobState.Starting);
            return;
        }

        var killed = JobFailure.OutOfMemory(process) is { } oom ? $" ({oom})" : "";
        job.Fail($"Job failed at runtime with exit code {process.ExitCode}{killed}:{Environment.NewLine}{job.Output.Tail(30)}");
        AgentLog.JobExited(logger, job.Id, job.Service, process.ExitCode);
    }

    private async Task StopProcessAsync(AgentJob job, JobProcess process)
    {
        if (process.HasExited)
        {
            return;
        }

        // A process the job named with ##ChildProcessId is asked first: it is the one being measured.
        if (job.ChildProcessId > 0)
        {
            try
            {
                using var child = Process.GetProcessById(job.ChildProcessId);
                if (control.RequestStop(child))
                {
                    await child.WaitForExitAsync().WaitAsync(JobProcess.StopGrace);
                }
            }
            catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or TimeoutException)
            {
            }
        }

        await process.StopAsync(JobProcess.StopGrace);
        AgentLog.ProcessEnded(logger, job.Id, job.Service, process.Id);
    }

    private void ExtractOutputAttachments(AgentJob job)
    {
        var pending = Path.Combine(job.Directory, "attachments");
        if (!Directory.Exists(pending))
        {
            return;
        }

        var destination = Directory.Exists(AgentJobFolders.Published(job)) ? AgentJobFolders.Published(job) : AgentJobFolders.Sources(job);
        foreach (var zip in Directory.GetFiles(pending, "*.zip").Order(StringComparer.Ordinal))
        {
            using var stream = File.OpenRead(zip);
            SafeZip.Extract(stream, destination, options.MaxUploadBytes);
        }
    }

    /// <summary>
    /// A server job's <c>bound:</c> verdict from its own samples (<see cref="JobVerdict"/>), as text
    /// results crank shows and stores; nothing when it was never loaded. The console jobs of the same
    /// run this agent ran are its loads (crank's <c>local</c> profile): their CPU counts beside the server's.
    /// </summary>
    private static void AddVerdict(AgentJob job, IReadOnlyList<JobSample> samples, IReadOnlyList<int>? cpus, IReadOnlyList<int>? confined,
        IReadOnlyList<LoadSamples> loads)
    {
        if (JobVerdict.Judge(samples, cpus, MachineCpus.Count, confined is not null, loads, job.Service) is not { } verdict)
        {
            job.Output.Add(
                "[agent] no bound: verdict: the server was not loaded for " + LoadedSpan.Shortest.ToString(CultureInfo.InvariantCulture)
                    + " whole seconds (its link and its CPU stayed near idle, or at half their peak for less than that)");
            return;
        }

        job.AddMetadata(CrankMetadata.ForText(JobVerdict.Kinds, JobVerdict.KindsLabel,
            "The kinds of the causes the server box's verdict names (docs/methodology.md)"));
        job.AddMetadata(CrankMetadata.ForText(JobVerdict.Brief, JobVerdict.BriefLabel,
            "What limited the run, judged by this job's agent from the seconds the job was loaded: the bound: line's first clause, its figures in bound"));
        job.AddMetadata(CrankMetadata.ForText(JobVerdict.Bound, JobVerdict.Bound,
            "What limited the run, judged by this job's agent from the seconds the job was loaded: its whole bound: line", "object"));
        job.AddMetadata(CrankMetadata.ForText(JobVerdict.Causes, JobVerdict.Causes, "The verdict's causes with their evidence, as a run document stores them",
            "object"));
        job.AddMeasurement(JobVerdict.Kinds, verdict.Kinds);
        job.AddMeasurement(JobVerdict.Brief, CrankText.Brief(verdict.Line));
        job.AddMeasurement(JobVerdict.Bound, verdict.Line);
        job.AddMeasurement(JobVerdict.Causes, RunDocumentJson.SerializeCauses(verdict.Causes));
        job.Output.Add("[agent] bound: " + verdict.Line);
    }

    private static string JobUrl(JobSpec spec) =>
        $"{spec.Scheme}://{(spec.Endpoints.Count > 0 ? spec.Endpoints[0].Host : System.Net.Dns.GetHostName())}:" +
        $"{spec.Port.ToString(CultureInfo.InvariantCulture)}{spec.Path}";

    /// <summary>crank's <c>cpuSet</c> ("0", "0-3", "1-4,6"): the CPUs the job's process is pinned to.</summary>
    private static IReadOnlyList<int>? CpusOf(JobSpec spec)
    {
        var text = spec.CpuSet;
        if (string.IsNullOrWhiteSpace(text))
        {
            return null;
        }

        try
        {
            var cpus = CpuSet.Parse(text);
            return cpus.All(c => c < Environment.ProcessorCount)
                ? cpus
                : throw new JobFailedException($"cpuSet '{text}' names a CPU this machine does not have ({Environment.ProcessorCount} CPUs)");
        }
        catch (FormatException ex)
        {
            throw new JobFailedException($"cpuSet '{text}' is not a CPU list such as 0, 0-3 or 1-4,6: {ex.Message}");
        }
    }

    /// <summary>
    /// The pid and its start time, so a restarted agent ends only the process it started; empty
    /// when it has already exited (nothing to end: its /proc entry may be gone while its start time
    /// is read).
    /// </summary>
    private static string ProcessRecord(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return processId.ToString(CultureInfo.InvariantCulture) + " " + process.StartTime.ToUniversalTime().Ticks.ToString(CultureInfo.InvariantCulture);
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return "";
        }
    }

    private static string FirstLine(string text) => text.Split('\n', 2)[0].TrimEnd('\r', ':');

    /// <summary>Starts the job's trace when it asked for one: its providers, or the line saying why there is none.</summary>
    private static void StartTrace(AgentJob job, JobSpec spec)
    {
        if (!spec.DotNetTrace)
        {
            return;
        }

        var (providers, error) = TraceProviders.Parse(spec.DotNetTraceProviders);
        if (providers is null)
        {
            job.Output.Add($"[agent] no trace: {error}");
            return;
        }

        job.Trace = JobTrace.Start(job.TrackedProcessId, providers, Path.Combine(job.Directory, "trace.nettrace"));
    }
}

using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Verify;
using Benchmarks.Load.Http;
using Benchmarks.Runs;

namespace Benchmarks.Host.Runs;

/// <summary>
/// One local run: the server and the load as child processes on separate CPUs, the machine
/// sampled every second of the measured window, and a run document that says what happened —
/// also when it failed, with what was measured before.
/// </summary>
internal sealed class RunCoordinator
{
    private static readonly TimeSpan s_stopGrace = TimeSpan.FromSeconds(5);

    private readonly CliConsole _console;
    private readonly ISystemMetrics _metrics;
    private readonly IProcessControl _control;

    public RunCoordinator(CliConsole console, ISystemMetrics metrics, IProcessControl control)
    {
        _console = console;
        _metrics = metrics;
        _control = control;
    }

    public async Task<RunDocument> RunAsync(RunRequest request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        var document = NewDocument(request);
        var started = Stopwatch.GetTimestamp();
        try
        {
            await ExecuteAsync(request, document, cancellationToken);
        }
        catch (RunFailedException ex)
        {
            Fail(document, ex.Message);
        }
        catch (OperationCanceledException)
        {
            Fail(document, "the run was cancelled before it finished");
        }
        finally
        {
            document.DurationSeconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        }

        return document;
    }

    private async Task ExecuteAsync(RunRequest request, RunDocument document, CancellationToken cancellationToken)
    {
        var resultFile = Path.Combine(Path.GetTempPath(), $"benchmarks-load-{document.Id}.json");
        await using var server = ServerJob.Start(
            new ServerLaunch(request.Scenario.Name, request.ServerName, request.ServerUrl)
            {
                Options = request.ServerOptions,
                PluginDirectories = request.PluginDirectories,
                Cpus = request.ServerCpus,
            },
            _control);
        await ServerJob.WaitUntilReadyAsync(server, request.StartTimeout, cancellationToken);
        if (request.Verify)
        {
            var report = await Verifier.VerifyAsync(request.Scenario, request.ServerUrl, cancellationToken);
            if (!report.Passed)
            {
                throw new RunFailedException($"the server failed verification: {report.FirstFailure}");
            }

            _console.Out.WriteLine($"Verified: {report.Checks.Count} TechEmpower checks passed.");
        }

        _console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Server {request.ServerName} ready (pid {server.Id}{Cpus(request.ServerCpus)}); loading {request.Load.Url} with {request.Load.Connections} connections, pipeline {request.Load.PipelineDepth}{Cpus(request.LoadCpus)}."));

        var nic = NetworkInterfaceLocator.ForDestination(ResolveAddress(request.ServerUrl))?.Name;
        RunSampling? sampling = null;
        var samplingReady = new TaskCompletionSource<RunSampling>(TaskCreationOptions.RunContinuationsAsynchronously);
        try
        {
            await using var load = JobProcess.Start(LoadJob(request, resultFile), _control, (line, isError) =>
            {
                if (!isError && LoadProtocol.Parse(line) is { } progress && samplingReady.Task.IsCompletedSuccessfully)
                {
                    OnLoadProgress(samplingReady.Task.Result, progress, request.Load);
                }
            });
            sampling = new RunSampling(new MetricsSampler(_metrics, server.Id, load.Id, nic), Environment.ProcessorCount);
            samplingReady.SetResult(sampling);
            await SampleUntilExitAsync(sampling, server, load, cancellationToken);

            document.Samples = [.. sampling.Samples];
            var loadResult = ReadLoadResult(resultFile);
            if (loadResult is not null)
            {
                Merge(document.Measurements, LoadMeasurements.From(loadResult));
            }

            Merge(document.Measurements, sampling.WindowMeasurements());
            if (server.HasExited)
            {
                throw new RunFailedException($"the server exited during the run with code {server.ExitCode}:{Environment.NewLine}{server.Tail.Format()}");
            }

            if (load.ExitCode != 0)
            {
                var cause = load.Tail.Last(20).LastOrDefault(l => l.Contains("error:", StringComparison.Ordinal))?.Replace("[stderr] ", "", StringComparison.Ordinal);
                throw new RunFailedException(cause is not null
                    ? $"the load reported: {cause}"
                    : $"the load exited with code {load.ExitCode}:{Environment.NewLine}{load.Tail.Format()}");
            }

            document.Status = RunStatus.Succeeded;
        }
        finally
        {
            if (sampling is not null && document.Samples.Count == 0)
            {
                document.Samples = [.. sampling.Samples];
                Merge(document.Measurements, sampling.WindowMeasurements());
            }

            File.Delete(resultFile);
            await server.StopAsync(s_stopGrace);
        }
    }

    private void OnLoadProgress(RunSampling sampling, LoadProgress progress, HttpLoadOptions load)
    {
        switch (progress.Phase)
        {
            case LoadPhase.WindowStarted:
                sampling.StartWindow();
                break;
            case LoadPhase.WindowEnded:
                sampling.EndWindow();
                break;
            case LoadPhase.Window:
                if (sampling.Tick(progress.RequestsPerSecond) is { } sample)
                {
                    _console.Out.WriteLine(ProgressLine(sample));
                }

                break;
            case LoadPhase.Warmup:
                _console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  warm-up {progress.Second}/{Math.Ceiling(load.Warmup.TotalSeconds)}s"));
                break;
        }
    }

    /// <summary>Waits for the load to finish; samples are taken on the load's own second ticks.</summary>
    private static async Task SampleUntilExitAsync(RunSampling sampling, JobProcess server, JobProcess load, CancellationToken cancellationToken)
    {
        await Task.WhenAny(load.Exited, server.Exited).WaitAsync(cancellationToken);
        if (server.HasExited && !load.HasExited)
        {
            // The server died under load: stop the load now (it reports what it measured), keep the window so far.
            sampling.EndWindow();
            await load.StopAsync(s_stopGrace);
        }

        await load.Exited;
    }

    private static string ProgressLine(RunSample sample)
    {
        var v = sample.Values;
        return string.Create(CultureInfo.InvariantCulture,
            $"  [{sample.Time,5:0.0}s] {v.GetValueOrDefault("http/rps"),12:N0} req/s | server cpu {v.GetValueOrDefault("benchmarks/cpu"),5:0.0}% (user {v.GetValueOrDefault("benchmarks/cpu/user"):0.0}%, kernel {v.GetValueOrDefault("benchmarks/cpu/kernel"):0.0}%) | machine idle {v.GetValueOrDefault("machine/cpu/idle"):0.0}% | net rx {v.GetValueOrDefault("net/rx"):0.0} Mbit/s");
    }

    private static JobStartInfo LoadJob(RunRequest request, string resultFile)
    {
        var load = request.Load;
        var arguments = new List<string>
        {
            "load", "--url", load.Url.ToString(), "--scenario", request.Scenario.Name,
            "--connections", Invariant(load.Connections), "--threads", Invariant(load.Threads), "--pipeline", Invariant(load.PipelineDepth),
            "--duration", DurationParser.Format(load.Duration), "--warmup", DurationParser.Format(load.Warmup),
            "--timeout", DurationParser.Format(load.Timeout),
            "--json", resultFile, "--progress", "--parent-pid", Invariant(Environment.ProcessId),
        };
        foreach (var (name, value) in load.Headers)
        {
            arguments.AddRange(["--header", $"{name}: {value}"]);
        }

        AddPlugins(arguments, request);
        return HostExecutable.Command("load", arguments) with
        {
            Cpus = request.LoadCpus,
            Environment = new Dictionary<string, string>
            {
                ["DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT"] = Invariant(load.Threads),
                ["DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS"] = "1",

                // A load generator wants its steady-state code from the first second: no tiering, no re-JIT under load.
                ["DOTNET_TieredCompilation"] = "0",
            },
        };
    }

    private static LoadResult? ReadLoadResult(string path)
    {
        try
        {
            return File.Exists(path) ? JsonSerializer.Deserialize(File.ReadAllText(path), LoadResultJson.Default.LoadResult) : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static RunDocument NewDocument(RunRequest request)
    {
        var load = request.Load;
        var document = new RunDocument
        {
            Id = Guid.CreateVersion7().ToString("N"),
            Scenario = request.Scenario.Name,
            Server = request.ServerName,
            Load = "http",
            Labels = [.. request.Labels],
            StartedAt = DateTimeOffset.UtcNow,
            Status = RunStatus.Failed,
            Environment = RunEnvironmentProbe.Capture(),
        };
        var parameters = document.Parameters;
        parameters["url"] = load.Url.ToString();
        parameters["connections"] = Invariant(load.Connections);
        parameters["threads"] = Invariant(load.Threads);
        parameters["pipeline"] = Invariant(load.PipelineDepth);
        parameters["duration"] = DurationParser.Format(load.Duration);
        parameters["warmup"] = DurationParser.Format(load.Warmup);
        parameters["timeout"] = DurationParser.Format(load.Timeout);
        parameters["server-cpus"] = request.ServerCpus is null ? "any" : CpuSet.Format(request.ServerCpus);
        parameters["load-cpus"] = request.LoadCpus is null ? "any" : CpuSet.Format(request.LoadCpus);
        foreach (var (name, value) in request.ServerOptions)
        {
            parameters[$"server-option/{name}"] = value;
        }

        foreach (var name in MeasurementCatalog.All.Keys)
        {
            document.Metadata[name] = MeasurementCatalog.All[name];
        }

        return document;
    }

    private static void Fail(RunDocument document, string error)
    {
        document.Status = RunStatus.Failed;
        document.Error = error;
    }

    private static void Merge(SortedDictionary<string, double> target, IReadOnlyDictionary<string, double> source)
    {
        foreach (var (name, value) in source)
        {
            if (double.IsFinite(value))
            {
                target[name] = value;
            }
        }
    }

    private static void AddPlugins(List<string> arguments, RunRequest request)
    {
        foreach (var directory in request.PluginDirectories)
        {
            arguments.AddRange(["--plugins", Path.GetFullPath(directory)]);
        }
    }

    private static IPAddress ResolveAddress(Uri url) =>
        IPAddress.TryParse(url.IdnHost, out var address) ? address : Dns.GetHostAddresses(url.IdnHost).FirstOrDefault() ?? IPAddress.Loopback;

    private static string Cpus(IReadOnlyList<int>? cpus) => cpus is null ? "" : $", cpus {CpuSet.Format(cpus)}";

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}

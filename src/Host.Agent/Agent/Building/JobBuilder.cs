using System.Diagnostics;
using System.Xml.Linq;
using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Files;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Agent.Scheduling;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Microsoft.Extensions.Logging;

namespace Benchmarks.Host.Agent.Building;

/// <summary>
/// Prepares a job's program offline: clones the repositories it names (where git can reach
/// them), then either publishes its project with this machine's SDK (<c>dotnet publish</c>,
/// packages from the machine's feeds; never an SDK download) or resolves its executable.
/// </summary>
internal sealed class JobBuilder(DotnetInstallation dotnet, BuildCache cache, IProcessControl control, ILogger logger)
{
    private static readonly TimeSpan DefaultBuildTimeout = TimeSpan.FromMinutes(10);

    public async Task<JobBuild> BuildAsync(AgentJob job, JobSpec spec, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(job);
        var stopwatch = Stopwatch.StartNew();
        var sourceRoot = AgentJobFolders.Sources(job);
        Directory.CreateDirectory(sourceRoot);

        ArgumentNullException.ThrowIfNull(spec);
        var problem = dotnet.Check(spec.SdkVersion, spec.RuntimeVersion, spec.AspNetCoreVersion, spec.Framework);
        if (problem is not null)
        {
            throw new JobFailedException(problem);
        }

        var buildTimeout = spec.BuildTimeout is { } custom && custom > DefaultBuildTimeout ? custom : DefaultBuildTimeout;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(buildTimeout);
        try
        {
            await CloneRepositoriesAsync(job, sourceRoot, timeout.Token);
            var project = spec.Project;
            if (!string.IsNullOrWhiteSpace(project))
            {
                return await PublishAsync(job, spec, sourceRoot, project, stopwatch, timeout.Token);
            }

            var executable = spec.Executable;
            if (string.IsNullOrWhiteSpace(executable))
            {
                throw new JobFailedException("the job has neither a project nor an executable");
            }

            return new JobBuild(ResolveExecutable(sourceRoot, executable), [], sourceRoot, stopwatch.Elapsed) { ProjectDirectory = sourceRoot };
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new JobFailedException($"the build took longer than {buildTimeout}:{Environment.NewLine}{job.BuildLog.Tail(20)}");
        }
    }

    private async Task CloneRepositoriesAsync(AgentJob job, string sourceRoot, CancellationToken cancellationToken)
    {
        foreach (var source in AgentJobSources.Read(job))
        {
            if (string.IsNullOrEmpty(source.Repository) || !string.IsNullOrEmpty(source.LocalFolder))
            {
                continue;
            }

            var destination = JobPaths.Confine(sourceRoot, source.Destination);
            var (branch, commit) = SplitBranchOrCommit(source.BranchOrCommit);
            var clone = new List<string> { "clone", "--quiet" };
            if (!string.IsNullOrEmpty(branch))
            {
                clone.AddRange(["--branch", branch]);
            }

            if (string.IsNullOrEmpty(commit))
            {
                clone.AddRange(["--depth", "1"]);
            }

            if (source.InitSubmodules)
            {
                clone.Add("--recurse-submodules");
            }

            clone.AddRange([source.Repository, destination]);
            await RunToolAsync(job, "git", clone, sourceRoot, $"could not clone {source.Repository}", cancellationToken);
            if (!string.IsNullOrEmpty(commit))
            {
                await RunToolAsync(job, "git", ["-C", destination, "checkout", "--quiet", commit], sourceRoot,
                    $"could not check out {commit} in {source.Repository}", cancellationToken);
            }
        }
    }

    private async Task<JobBuild> PublishAsync(AgentJob job, JobSpec spec, string sourceRoot, string project, Stopwatch stopwatch,
        CancellationToken cancellationToken)
    {
        var projectPath = JobPaths.Confine(sourceRoot, project);
        if (!File.Exists(projectPath))
        {
            throw new JobFailedException($"the project '{project}' is not in the job's sources (looked for {projectPath})");
        }

        var arguments = new List<string> { "publish", projectPath, "-c", "Release", "--nologo" };
        if (spec.Framework is { Length: > 0 } framework)
        {
            arguments.AddRange(["-f", framework]);
        }

        if (spec.SelfContained)
        {
            arguments.Add("--self-contained");
        }

        foreach (var argument in spec.BuildArguments)
        {
            arguments.AddRange(CommandLineSplitter.Split(argument));
        }

        var workingDirectory = Path.GetDirectoryName(projectPath)!;
        var assemblyName = AssemblyName(projectPath);
        string output;
        string? cacheKey = null;
        if (job.BuildKeyParts() is { } parts && !Directory.Exists(Path.Combine(job.Directory, "attachments")))
        {
            cacheKey = BuildCache.Key([.. parts, project, .. arguments.Skip(2)]);
            var (folder, reused) = await cache.GetOrBuildAsync(cacheKey, async target =>
            {
                await PublishToAsync(job, arguments, target, workingDirectory, cancellationToken);
                Program(target, assemblyName, spec.SelfContained);
            });
            if (reused)
            {
                job.BuildLog.Add($"Reusing the build {cacheKey} of the same sources and options (no new publish).");
            }

            output = folder;
        }
        else
        {
            output = AgentJobFolders.Published(job);
            await PublishToAsync(job, arguments, output, workingDirectory, cancellationToken);
        }

        var (fileName, leading) = Program(output, assemblyName, spec.SelfContained);
        return new JobBuild(fileName, leading, workingDirectory, stopwatch.Elapsed)
        {
            OutputDirectory = output,
            CacheKey = cacheKey,
            ProjectDirectory = workingDirectory,
        };
    }

    /// <summary>
    /// How to start a published program: a self-contained one through its own executable (it
    /// carries its runtime), a framework-dependent one as <c>dotnet app.dll</c>. A build that has
    /// neither fails here, so it never enters the build cache.
    /// </summary>
    private static (string FileName, IReadOnlyList<string> LeadingArguments) Program(string output, string assemblyName, bool selfContained)
    {
        var assembly = Path.Combine(output, assemblyName + ".dll");
        if (!File.Exists(assembly))
        {
            throw new JobFailedException($"the build produced no {Path.GetFileName(assembly)} in its output");
        }

        if (!selfContained)
        {
            return (Jobs.DotnetMuxer.Path, [assembly]);
        }

        var executable = Path.Combine(output, assemblyName + (OperatingSystem.IsWindows() ? ".exe" : ""));
        return File.Exists(executable)
            ? (executable, [])
            : throw new JobFailedException($"the self-contained build produced no executable {Path.GetFileName(executable)} in its output");
    }

    private async Task PublishToAsync(AgentJob job, List<string> arguments, string output, string workingDirectory, CancellationToken cancellationToken)
    {
        // The compiler server's arguments come before the job's own, which may override them.
        var server = new BuildCompilerServer(dotnet, $"benchmarks-build-{Environment.ProcessId}-{job.Id}");
        List<string> publish = [.. arguments.Take(2), .. server.Arguments, .. arguments.Skip(2), "-o", output];
        AgentLog.Publishing(logger, job.Id, job.Service, string.Join(' ', publish));
        job.BuildLog.Add("> dotnet " + string.Join(' ', publish));
        try
        {
            await RunToolAsync(job, Jobs.DotnetMuxer.Path, publish, workingDirectory, "the build failed", cancellationToken);
        }
        finally
        {
            job.BuildLog.Add(await server.ShutdownAsync(workingDirectory));
        }
    }

    private async Task RunToolAsync(AgentJob job, string fileName, IReadOnlyList<string> arguments, string workingDirectory, string failure,
        CancellationToken cancellationToken)
    {
        var environment = new Dictionary<string, string>
        {
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
            ["DOTNET_NOLOGO"] = "1",
            ["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1",
            ["GIT_TERMINAL_PROMPT"] = "0",

            // No MSBuild node or server outlives the build (the compiler's is stopped after it).
            ["MSBUILDDISABLENODEREUSE"] = "1",
            ["DOTNET_CLI_USE_MSBUILD_SERVER"] = "0",

            // A package audit that cannot reach the feed (NU1900) is a warning in the build log, not
            // a failed job, where the project treats warnings as errors: a lab box is often cut off
            // from the feed with every package in its cache. A project that sets the property
            // without its previous value keeps its own choice.
            ["WarningsNotAsErrors"] = "NU1900",
        };
        JobProcess process;
        try
        {
            process = JobProcess.Start(new JobStartInfo("build", fileName, arguments) { WorkingDirectory = workingDirectory, Environment = environment },
                control, (line, isError) => job.BuildLog.Add(isError ? "[STDERR] " + line : line));
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new JobFailedException($"{failure}: cannot start {fileName}: {ex.Message}");
        }

        await using (process)
        {
            try
            {
                await process.Exited.WaitAsync(cancellationToken);
            }
            catch (OperationCanceledException)
            {
                await process.StopAsync(TimeSpan.FromSeconds(2));
                throw;
            }

            if (process.ExitCode != 0)
            {
                var restoreFailed = job.BuildLog.From(0).Any(l => l.Contains("error NU1", StringComparison.Ordinal));
                var missing = restoreFailed && MissingPackages.Describe(workingDirectory) is { } packages ? ": packages " + packages : "";
                throw new JobFailedException($"{failure} (exit code {process.ExitCode}){missing}:{Environment.NewLine}{Diagnostics(job.BuildLog)}");
            }
        }
    }

    /// <summary>The build's error lines (compiler and MSBuild messages), else its last lines.</summary>
    private static string Diagnostics(OutputTail log)
    {
        var errors = log.From(0).Where(l => l.Contains(": error ", StringComparison.OrdinalIgnoreCase) || l.StartsWith("error",
            StringComparison.OrdinalIgnoreCase) || l.StartsWith("fatal:", StringComparison.Ordinal)).Distinct().Take(30).ToList();
        return errors.Count > 0 ? string.Join(Environment.NewLine, errors) : log.Tail(30);
    }

    private static string AssemblyName(string projectPath)
    {
        try
        {
            var name = XDocument.Load(projectPath).Descendants().FirstOrDefault(e => e.Name.LocalName == "AssemblyName")?.Value;
            if (!string.IsNullOrWhiteSpace(name) && !name.Contains('$', StringComparison.Ordinal))
            {
                return name.Trim();
            }
        }
        catch (System.Xml.XmlException)
        {
        }

        return Path.GetFileNameWithoutExtension(projectPath);
    }

    private static string ResolveExecutable(string sourceRoot, string executable)
    {
        if (Path.IsPathRooted(executable))
        {
            return executable;
        }

        if (executable.Contains('/', StringComparison.Ordinal) || executable.Contains('\\', StringComparison.Ordinal))
        {
            return JobPaths.Confine(sourceRoot, executable);
        }

        var local = Path.Combine(sourceRoot, executable);
        return File.Exists(local) ? local : executable;
    }

    private static (string? Branch, string? Commit) SplitBranchOrCommit(string? value)
    {
        if (string.IsNullOrEmpty(value))
        {
            return (null, null);
        }

        var hash = value.IndexOf('#', StringComparison.Ordinal);
        return hash < 0 ? (value, null) : (hash == 0 ? null : value[..hash], value[(hash + 1)..]);
    }
}

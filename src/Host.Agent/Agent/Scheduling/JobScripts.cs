using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// crank's <c>beforeScript</c> and <c>afterScript</c>: a command line run by the machine's shell
/// (<c>/bin/sh -c</c>, <c>cmd.exe /c</c> on Windows) in the job's folder, its output kept in the
/// job's output under the script's name, stopped with its whole tree after <see cref="Timeout"/>.
/// </summary>
internal static class JobScripts
{
    /// <summary>The longest a script may run.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(5);

    /// <summary>Runs <paramref name="script"/>; null when it exited with 0, else why not in one line.</summary>
    public static async Task<string?> RunAsync(AgentJob job, string name, string script, string folder, IProcessControl control,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(job);
        var (shell, arguments) = OperatingSystem.IsWindows() ? ("cmd.exe", new[] { "/c", script }) : ("/bin/sh", new[] { "-c", script });
        job.Output.Add($"[{name}] {script}");
        await using var process = JobProcess.Start(new JobStartInfo(name, shell, arguments) { WorkingDirectory = folder }, control,
            (line, isError) => job.Output.Add($"[{name}]{(isError ? " [STDERR]" : "")} {line}"));
        try
        {
            await process.Exited.WaitAsync(Timeout, cancellationToken);
        }
        catch (TimeoutException)
        {
            await process.StopAsync(JobProcess.StopGrace);
            return $"{name} did not end within {Cli.DurationParser.Format(Timeout)}: stopped";
        }

        return process.ExitCode == 0
            ? null
            : JobFailure.OneLine($"{name} exited with code {process.ExitCode}: {JobFailure.TellingLine(process.Tail) ?? "(no output)"}");
    }
}

using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Runs;

namespace Benchmarks.Host.Jobs;

/// <summary>Starts <c>benchmarks serve</c> as a child process and waits for its ready line.</summary>
internal static class ServerJob
{
    public static JobProcess Start(ServerLaunch launch, IProcessControl control)
    {
        ArgumentNullException.ThrowIfNull(launch);
        var arguments = new List<string>
        {
            "serve", "--scenario", launch.Scenario, "--server", launch.Server,
            "--urls", launch.Url.GetLeftPart(UriPartial.Authority),
            "--parent-pid", Environment.ProcessId.ToString(CultureInfo.InvariantCulture),
        };
        foreach (var (name, value) in launch.Options)
        {
            arguments.AddRange(["--server-option", $"{name}={value}"]);
        }

        foreach (var directory in launch.PluginDirectories)
        {
            arguments.AddRange(["--plugins", Path.GetFullPath(directory)]);
        }

        return JobProcess.Start(HostExecutable.Command("server", arguments) with { Cpus = launch.Cpus }, control);
    }

    /// <summary>Throws <see cref="RunFailedException"/> with the server's last lines if it exits or stays silent.</summary>
    public static async Task WaitUntilReadyAsync(JobProcess server, TimeSpan timeout, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(server);
        var ready = server.WaitForLineAsync(ServeCommand.ReadyText);
        var first = await Task.WhenAny(ready, server.Exited, Task.Delay(timeout, cancellationToken));
        if (first == ready)
        {
            return;
        }

        cancellationToken.ThrowIfCancellationRequested();
        if (server.HasExited)
        {
            await server.StopAsync(TimeSpan.FromSeconds(5));
            throw new RunFailedException(JobFailure.Exited("the server exited", server, " before it was ready"));
        }

        throw new RunFailedException(new JobFailure($"the server did not print '{ServeCommand.ReadyText}' within {DurationParser.Format(timeout)}", server.Tail.Format(20)));
    }
}

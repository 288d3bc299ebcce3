using System.Diagnostics;

namespace Benchmarks.Host.Agent.Building;

/// <summary>
/// A C# compiler server of one build's own. The build's projects share one warm compiler
/// instead of starting one each (a publish of the host and the projects it references takes
/// about a third less CPU), and the server is shut down when the build ends: the SDK's default
/// server would stay up for ten minutes, into the measurement, and machines that disable it
/// (<c>UseSharedCompilation=false</c>) do so for that reason. A job's own build arguments come
/// later on the command line, so a job can still turn the server off.
/// </summary>
internal sealed class BuildCompilerServer(DotnetInstallation dotnet, string pipeName)
{
    private static readonly TimeSpan ToolTimeout = TimeSpan.FromSeconds(15);

    /// <summary>The server's name: the agent's process and the job, unique on the machine.</summary>
    public string PipeName { get; } = pipeName;

    /// <summary>MSBuild arguments that turn the shared compiler on under this build's name.</summary>
    public IReadOnlyList<string> Arguments => ["-p:UseSharedCompilation=true", "-p:SharedCompilationId=" + PipeName];

    /// <summary>
    /// Asks the server to stop, through the compiler of the SDK the build used (the sources'
    /// <c>global.json</c> decides which); a line for the build log says what happened. A server
    /// that never started answers at once.
    /// </summary>
    public async Task<string> ShutdownAsync(string workingDirectory)
    {
        var (_, version) = await RunAsync(["--version"], workingDirectory);
        var folder = dotnet.SdkFolder(version.Trim());
        var compiler = folder is null ? null : Path.Combine(folder, "Roslyn", "bincore", "VBCSCompiler.dll");
        if (compiler is null || !File.Exists(compiler))
        {
            return $"No compiler server to stop: SDK '{version.Trim()}' has no Roslyn/bincore/VBCSCompiler.dll.";
        }

        var (exitCode, output) = await RunAsync(["exec", compiler, "-shutdown", "-pipename:" + PipeName], workingDirectory);
        return exitCode == 0
            ? $"Stopped the build's compiler server ({PipeName})."
            : $"The build's compiler server ({PipeName}) did not stop (exit code {exitCode}): {output.Trim()}";
    }

    private static async Task<(int ExitCode, string Output)> RunAsync(IReadOnlyList<string> arguments, string workingDirectory)
    {
        var startInfo = new ProcessStartInfo(Jobs.DotnetMuxer.Path)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        startInfo.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        startInfo.Environment["DOTNET_NOLOGO"] = "1";
        try
        {
            using var process = Process.Start(startInfo) ?? throw new InvalidOperationException("dotnet did not start");
            using var timeout = new CancellationTokenSource(ToolTimeout);
            var output = process.StandardOutput.ReadToEndAsync(timeout.Token);
            var error = process.StandardError.ReadToEndAsync(timeout.Token);
            try
            {
                await process.WaitForExitAsync(timeout.Token);
                return (process.ExitCode, await output + await error);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                return (-1, $"dotnet {string.Join(' ', arguments)} took longer than {ToolTimeout.TotalSeconds:0} s");
            }
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            return (-1, ex.Message);
        }
    }
}

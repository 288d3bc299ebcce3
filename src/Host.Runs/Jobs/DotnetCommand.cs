using System.Diagnostics;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// One <c>dotnet</c> SDK command of this program's own (a restore of runtime packs, a NativeAOT
/// publish), its output kept for the one line that says why it failed: stopped with its whole
/// process tree when cancelled or past its time.
/// </summary>
internal static class DotnetCommand
{
    /// <summary>The command's exit code and its output lines (standard output, then standard error).</summary>
    public static async Task<(int ExitCode, IReadOnlyList<string> Lines)> RunAsync(IReadOnlyList<string> arguments, string workDirectory, TimeSpan timeout,
        CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo(DotnetMuxer.Path, arguments)
        {
            WorkingDirectory = workDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_NOLOGO"] = "1";
        info.Environment["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1";
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"dotnet {arguments[0]} did not start");
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);
        var output = process.StandardOutput.ReadToEndAsync(limit.Token);
        var error = process.StandardError.ReadToEndAsync(limit.Token);
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            if (cancellationToken.IsCancellationRequested)
            {
                throw;
            }

            throw new TimeoutException($"dotnet {arguments[0]} did not end within {timeout.TotalMinutes:0} minutes");
        }

        var lines = (await output + "\n" + await error).Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        return (process.ExitCode, lines);
    }

    /// <summary>The line of <paramref name="lines"/> that says why the command failed: its first error, else its last line.</summary>
    public static string Cause(IReadOnlyList<string> lines, int exitCode) =>
        lines.FirstOrDefault(l => l.Contains(": error ", StringComparison.OrdinalIgnoreCase))
        ?? lines.FirstOrDefault(l => l.Contains("error", StringComparison.OrdinalIgnoreCase))
        ?? (lines.Count > 0 ? lines[^1] : $"exit code {exitCode}");
}

using System.Diagnostics;
using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>Runs a real client (curl, nghttp, h2load, wrk; each on eng/tools.list) to its end and keeps what it printed, both streams.</summary>
internal static class ExternalTool
{
    public static async Task<(int ExitCode, string Output)> RunAsync(string fileName, params string[] arguments)
    {
        Tools.Require(fileName);
        var info = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info)!;
        var output = new StringBuilder();
        var error = process.StandardError.ReadToEndAsync();
        output.Append(await process.StandardOutput.ReadToEndAsync());
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{fileName} {string.Join(' ', arguments)} did not finish within 60 s:\n{output}");
        }

        output.Append(await error);
        return (process.ExitCode, output.ToString());
    }
}

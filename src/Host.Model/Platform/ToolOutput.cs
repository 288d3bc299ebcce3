using System.Diagnostics;

namespace Benchmarks.Host.Platform;

/// <summary>
/// What a short-lived tool prints (<c>git rev-parse</c>, <c>tc qdisc show</c>): its standard
/// output, or null when it is missing, fails or outlasts its time.
/// </summary>
internal static class ToolOutput
{
    public static string? Read(string fileName, TimeSpan timeout, params string[] arguments)
    {
        try
        {
            var info = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (var argument in arguments)
            {
                info.ArgumentList.Add(argument);
            }

            using var process = Process.Start(info);
            if (process is null)
            {
                return null;
            }

            var output = process.StandardOutput.ReadToEndAsync();
            _ = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(timeout))
            {
                process.Kill(entireProcessTree: true);
                return null;
            }

            return process.ExitCode == 0 ? output.GetAwaiter().GetResult() : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // Not installed.
            return null;
        }
    }
}

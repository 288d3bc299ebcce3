using System.Diagnostics;
using System.Reflection;
using System.Runtime.InteropServices;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Runs;

/// <summary>Describes this machine for the run document.</summary>
internal static class RunEnvironmentProbe
{
    public static RunEnvironment Capture() => new()
    {
        Os = OsPlatform.Name,
        OsVersion = RuntimeInformation.OSDescription,
        Architecture = RuntimeInformation.OSArchitecture.ToString(),
        Cores = MachineCpus.Count,
        MachineName = Environment.MachineName,
        Runtime = RuntimeInformation.FrameworkDescription,
        Sdk = FirstLine("dotnet", "--version"),
        GitCommit = FirstLine("git", "rev-parse", "HEAD"),
        ToolVersion = typeof(RunEnvironmentProbe).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "",
    };

    /// <summary>The first line a tool prints, or null if it is missing, fails or takes over five seconds.</summary>
    private static string? FirstLine(string fileName, params string[] arguments)
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
            if (!process.WaitForExit(5000))
            {
                process.Kill(entireProcessTree: true);
                return null;
            }

            return process.ExitCode == 0 ? output.Result.Split('\n')[0].Trim() : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}

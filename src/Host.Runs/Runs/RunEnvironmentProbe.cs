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
        Kernel = KernelRelease(),
        IoUring = Load.Http.HttpLoadEngines.IoUringAvailability(),
        Architecture = RuntimeInformation.OSArchitecture.ToString(),
        Cores = MachineCpus.Count,
        MachineName = Environment.MachineName,
        Runtime = RuntimeInformation.FrameworkDescription,
        Sdk = FirstLine("dotnet", "--version"),
        GitCommit = FirstLine("git", "rev-parse", "HEAD"),
        ToolVersion = typeof(RunEnvironmentProbe).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "",
        Dependencies = PublishedDependencies.OfThisTool(),
    };

    private static string? KernelRelease()
    {
        const string Release = "/proc/sys/kernel/osrelease";
        try
        {
            return OperatingSystem.IsLinux() && File.Exists(Release) ? File.ReadAllText(Release).Trim() : null;
        }
        catch (IOException)
        {
            return null;
        }
    }

    /// <summary>The first line a tool prints, or null if it is missing, fails or takes over five seconds.</summary>
    private static string? FirstLine(string fileName, params string[] arguments) =>
        ToolOutput.Read(fileName, TimeSpan.FromSeconds(5), arguments)?.Split('\n')[0].Trim();
}

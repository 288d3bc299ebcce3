using System.Reflection;

namespace Benchmarks.Tests.Support;

internal static class TestPaths
{
    public static string HostDirectory => Metadata("HostDirectory");

    public static string RepoRoot => Metadata("RepoRoot");

    public static string SamplePluginDirectory => Metadata("SamplePluginDirectory");

    /// <summary>The real crank controller's recorded traffic with the agent, kept in the repository (refreshed by eng/refresh-transcripts.sh).</summary>
    public static string CrankTranscripts => Path.Combine(RepoRoot, "tests", "Fixtures", "crank-transcripts");

    public static string HostExecutable => Path.Combine(HostDirectory, OperatingSystem.IsWindows() ? "benchmarks.exe" : "benchmarks");

    public static string NewTempDirectory()
    {
        var path = Path.Combine(Path.GetTempPath(), "benchmarks-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(path);
        return path;
    }

    private static string Metadata(string key) =>
        typeof(TestPaths).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == key).Value!;
}

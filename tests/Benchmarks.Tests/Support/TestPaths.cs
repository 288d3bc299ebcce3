using System.Reflection;

namespace Benchmarks.Tests.Support;

internal static class TestPaths
{
    /// <summary>
    /// The host the tests start: the build's output, or the precompiled (ReadyToRun) copy of it that
    /// <c>eng/test.sh</c> makes and names in <c>BENCHMARKS_TEST_HOST</c>.
    /// </summary>
    public static string HostDirectory => Environment.GetEnvironmentVariable("BENCHMARKS_TEST_HOST") is { Length: > 0 } published
        ? Path.TrimEndingDirectorySeparator(published) + Path.DirectorySeparatorChar
        : Metadata("HostDirectory");

    public static string RepoRoot => Metadata("RepoRoot");

    public static string SamplePluginDirectory => Metadata("SamplePluginDirectory");

    /// <summary>The real crank controller's recorded traffic with the agent, kept in the repository (refreshed by eng/refresh-transcripts.sh).</summary>
    public static string CrankTranscripts => Path.Combine(RepoRoot, "tests", "Fixtures", "crank-transcripts");

    /// <summary>The folder of the <c>dotnet</c> this test process runs on (the test assembly is a program of its own, not <c>dotnet</c>).</summary>
    public static string DotnetDirectory =>
        Path.GetFullPath(Path.Combine(System.Runtime.InteropServices.RuntimeEnvironment.GetRuntimeDirectory(), "..", "..", ".."));

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

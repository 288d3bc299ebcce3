namespace Benchmarks.Host.LoadJobs;

/// <summary>Finds an external load tool's executable on PATH.</summary>
internal static class ToolSearch
{
    /// <summary>The full path of <paramref name="name"/> (with .exe on Windows) in a PATH folder, or null.</summary>
    public static string? Locate(string name)
    {
        foreach (var directory in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var candidate = Path.Combine(directory, OperatingSystem.IsWindows() ? name + ".exe" : name);
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return null;
    }
}

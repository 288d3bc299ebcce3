namespace Benchmarks.Host.Platform;

/// <summary>Finds an external tool's executable (a load generator, a proxy, perf) on PATH.</summary>
internal static class ToolSearch
{
    /// <summary>The full path of <paramref name="name"/> (with .exe on Windows) in a PATH folder, then in <paramref name="more"/>, or null.</summary>
    public static string? Locate(string name, params IEnumerable<string> more) =>
        LocateIn(name, (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries).Concat(more));

    /// <summary>The full path of <paramref name="name"/> (with .exe on Windows) in the first of <paramref name="folders"/> that has it, or null.</summary>
    public static string? LocateIn(string name, IEnumerable<string> folders)
    {
        ArgumentNullException.ThrowIfNull(folders);
        var file = OperatingSystem.IsWindows() ? name + ".exe" : name;
        return folders.Select(folder => Path.Combine(folder, file)).FirstOrDefault(File.Exists);
    }
}

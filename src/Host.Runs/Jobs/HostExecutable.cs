namespace Benchmarks.Host.Jobs;

/// <summary>How to start this same program again as a child (<c>benchmarks serve …</c>, <c>benchmarks load …</c>).</summary>
internal static class HostExecutable
{
    /// <param name="dotnetRoot">A .NET installation to run it on (its <c>dotnet</c> and this program's assembly); null: as this process runs.</param>
    public static JobStartInfo Command(string name, IEnumerable<string> arguments, string? dotnetRoot = null)
    {
        if (dotnetRoot is not null)
        {
            return new JobStartInfo(name, RuntimePatch.Muxer(dotnetRoot), [Path.Combine(AppContext.BaseDirectory, "benchmarks.dll"), .. arguments]);
        }

        var processPath = Environment.ProcessPath ?? throw new InvalidOperationException("The path of this process is unknown.");
        var file = Path.GetFileNameWithoutExtension(processPath);
        if (string.Equals(file, "dotnet", StringComparison.OrdinalIgnoreCase))
        {
            // Started as 'dotnet benchmarks.dll': start the child the same way.
            var assembly = Path.Combine(AppContext.BaseDirectory, "benchmarks.dll");
            return new JobStartInfo(name, processPath, [assembly, .. arguments]);
        }

        return new JobStartInfo(name, processPath, [.. arguments]);
    }
}

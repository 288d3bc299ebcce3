namespace Benchmarks.Host.LoadJobs;

/// <summary>An output file a load was asked to write (<c>--latency-distribution</c>, <c>load --json</c>).</summary>
internal static class OutputFile
{
    /// <summary>
    /// The full path of an output file asked for (the distribution, a load's <c>--json</c>), its
    /// folder created: checked before any load starts, so a path that cannot be written is a usage
    /// error, not a lost run.
    /// </summary>
    public static string Prepare(string path, string option)
    {
        ArgumentNullException.ThrowIfNull(path);
        try
        {
            var full = Path.GetFullPath(path);
            Directory.CreateDirectory(Path.GetDirectoryName(full)!);
            using (File.Open(full + ".tmp", FileMode.Create, FileAccess.Write))
            {
            }

            File.Delete(full + ".tmp");
            return full;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or NotSupportedException or ArgumentException)
        {
            throw new ArgumentException($"{option}: cannot write '{path}': {ex.Message}", ex);
        }
    }
}

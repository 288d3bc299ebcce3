using System.Globalization;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Runs;

/// <summary>
/// A run's scratch folder in the temporary folder, named after the process that owns it
/// (<c>benchmarks-run-PID-random</c>): a run killed before it could clean up leaves one behind,
/// and the next run removes every such folder whose owner has ended.
/// </summary>
internal static class RunWorkFolders
{
    private const string Prefix = "benchmarks-run-";

    public static string Create(IProcessControl control)
    {
        ArgumentNullException.ThrowIfNull(control);
        RemoveLeftovers(control);
        return Directory.CreateTempSubdirectory($"{Prefix}{Environment.ProcessId.ToString(CultureInfo.InvariantCulture)}-").FullName;
    }

    private static void RemoveLeftovers(IProcessControl control)
    {
        IEnumerable<string> folders;
        try
        {
            folders = Directory.EnumerateDirectories(Path.GetTempPath(), Prefix + "*").ToList();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return;
        }

        foreach (var folder in folders)
        {
            var name = Path.GetFileName(folder)[Prefix.Length..];
            var dash = name.IndexOf('-', StringComparison.Ordinal);
            if (dash <= 0 || !int.TryParse(name.AsSpan(0, dash), NumberStyles.None, CultureInfo.InvariantCulture, out var owner)
                || owner == Environment.ProcessId || !control.HasEnded(owner))
            {
                continue;
            }

            try
            {
                Directory.Delete(folder, recursive: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
            }
        }
    }
}

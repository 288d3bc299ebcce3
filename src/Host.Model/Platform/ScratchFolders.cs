using System.Globalization;

namespace Benchmarks.Host.Platform;

/// <summary>
/// Folders in the temporary folder named after the process that owns them
/// (<c>PREFIX-PID-random</c>): one that a killed process left behind (SIGKILL, a power cut) is
/// found by the next run, which cleans up after it — its processes stopped, the folder removed.
/// </summary>
internal static class ScratchFolders
{
    /// <summary>A new folder owned by this process.</summary>
    public static string Create(string prefix) =>
        Directory.CreateTempSubdirectory($"{prefix}{Environment.ProcessId.ToString(CultureInfo.InvariantCulture)}-").FullName;

    /// <summary>The folders with <paramref name="prefix"/> whose owner has ended (never this process's).</summary>
    public static IReadOnlyList<string> Abandoned(string prefix, IProcessControl control)
    {
        ArgumentNullException.ThrowIfNull(control);
        List<string> folders;
        try
        {
            folders = [.. Directory.EnumerateDirectories(Path.GetTempPath(), prefix + "*")];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }

        return [.. folders.Where(folder =>
        {
            var name = Path.GetFileName(folder)[prefix.Length..];
            var dash = name.IndexOf('-', StringComparison.Ordinal);
            return dash > 0 && int.TryParse(name.AsSpan(0, dash), NumberStyles.None, CultureInfo.InvariantCulture, out var owner)
                && owner != Environment.ProcessId && control.HasEnded(owner);
        })];
    }

    /// <summary>Ends a process a dead owner left running, with its children, when it still is the program named (a reused pid is left alone).</summary>
    public static void EndLeftover(int processId, string programPrefix)
    {
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(processId);
            if (process.ProcessName.StartsWith(programPrefix, StringComparison.OrdinalIgnoreCase))
            {
                process.Kill(entireProcessTree: true);
                process.WaitForExit(5000);
            }
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
        }
    }

    /// <summary>Removes a folder, ignoring what cannot be removed.</summary>
    public static void TryDelete(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }

    /// <summary>Process ids written one per line (a file the owner kept), skipping what does not parse.</summary>
    public static IReadOnlyList<int> ReadIds(string path)
    {
        try
        {
            return [.. File.ReadLines(path).Select(l => int.TryParse(l.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var id)
                ? id
                : 0).Where(id => id > 0)];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }
}

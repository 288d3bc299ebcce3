using Benchmarks.Host.Databases;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Proxies;

namespace Benchmarks.Host.Runs;

/// <summary>
/// A run's scratch folder in the temporary folder, named after the process that owns it
/// (<c>benchmarks-run-PID-random</c>). Creating one first cleans up after runs that were killed
/// before they could: their scratch and sweep folders are removed, and the private PostgreSQL
/// clusters and proxies they started are stopped (see <see cref="ScratchFolders"/>).
/// </summary>
internal static class RunWorkFolders
{
    private const string Prefix = "benchmarks-run-";

    /// <summary>A sweep's folder of cell documents.</summary>
    public const string SweepPrefix = "benchmarks-sweep-";

    public static string Create(IProcessControl control)
    {
        ArgumentNullException.ThrowIfNull(control);
        RemoveLeftovers(control);
        return ScratchFolders.Create(Prefix);
    }

    public static void RemoveLeftovers(IProcessControl control)
    {
        PostgresCluster.RemoveLeftovers(control);
        ReverseProxy.RemoveLeftovers(control);
        foreach (var folder in ScratchFolders.Abandoned(Prefix, control).Concat(ScratchFolders.Abandoned(SweepPrefix, control)))
        {
            ScratchFolders.TryDelete(folder);
        }
    }
}

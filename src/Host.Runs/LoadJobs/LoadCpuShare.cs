using Benchmarks.Host.Measurements;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.LoadJobs;

/// <summary>A load's own CPU over its measured window as a share of the machine (not of the CPUs it was pinned to).</summary>
internal static class LoadCpuShare
{
    public static void Add(IDictionary<string, double> measurements, double userSeconds, double kernelSeconds, double windowSeconds)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        if (windowSeconds <= 0)
        {
            return;
        }

        var capacity = windowSeconds * MachineCpus.Count;
        measurements[SystemMeasures.LoadUser.Name] = userSeconds / capacity * 100;
        measurements[SystemMeasures.LoadKernel.Name] = kernelSeconds / capacity * 100;
    }
}

using Benchmarks.Host.Measurements;
using Benchmarks.Load.Core;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// What every load's result becomes the same way, under its protocol's names: the load's own CPU,
/// its warm-up, and (for a load that takes a rate) the open model's report.
/// </summary>
internal static class WindowMeasurements
{
    /// <param name="measurements">Where the measurements go.</param>
    /// <param name="result">The load's result.</param>
    /// <param name="achieved">The rate achieved, in the unit of the requested one.</param>
    /// <param name="open">The protocol's open-model names; null for a load without a rate.</param>
    public static void Add(IDictionary<string, double> measurements, LoadWindowResult result, double achieved, OpenModelMeasures? open)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        ArgumentNullException.ThrowIfNull(result);
        LoadCpuShare.Add(measurements, result.CpuUserSeconds, result.CpuKernelSeconds, result.CpuWindowSeconds);
        measurements[SystemMeasures.LoadWarmup.Name] = result.WarmupSeconds;
        if (result.WarmupSteady is { } steady)
        {
            measurements[SystemMeasures.LoadWarmupSteady.Name] = steady ? 1 : 0;
        }

        if (open is null || result.RequestedRate is not { } requested)
        {
            return;
        }

        measurements[open.RateRequested.Name] = requested;
        measurements[open.RateShortfall.Name] = Math.Max(0, (requested - achieved) / requested * 100);
        measurements[open.Due.Name] = result.Due;
        measurements[open.Late.Name] = result.Late;
        measurements[open.LateByLoad.Name] = result.LateByLoad;
        measurements[open.BacklogAtStart.Name] = result.BacklogAtStart;
        measurements[open.Backlog.Name] = result.Backlog;
        if (result.Uncorrected is { } uncorrected)
        {
            open.Uncorrected.Add(measurements, uncorrected);
        }
    }
}

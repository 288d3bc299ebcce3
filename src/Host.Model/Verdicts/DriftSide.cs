using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Verdicts;

/// <summary>One side of a <see cref="DriftRule"/> comparison: its figures, each the mean of the seconds that carry it.</summary>
internal sealed class DriftSide
{
    public DriftSide(CpuPlacement placement, IReadOnlyList<RunSample> seconds)
    {
        User = Mean(seconds, SystemMeasures.CpuUser) ?? 0;
        Kernel = Mean(seconds, SystemMeasures.CpuKernel) ?? 0;
        ServerBusy = placement.Busy(ServerShare, placement.Server);
        ServerCpusIdle = Mean(seconds, SystemMeasures.ServerCpusIdle);
        var load = (Mean(seconds, SystemMeasures.LoadUser) ?? 0) + (Mean(seconds, SystemMeasures.LoadKernel) ?? 0);
        LoadBusy = placement.Busy(load, placement.Load);
        Steal = Mean(seconds, SystemMeasures.MachineSteal) ?? 0;
        GcPause = Mean(seconds, RuntimeMeasures.GcPause);
        Threads = Mean(seconds, RuntimeMeasures.Threads) ?? 0;
        Contentions = Mean(seconds, RuntimeMeasures.Contentions) ?? 0;
        var machineIdle = Mean(seconds, SystemMeasures.MachineIdle);
        OtherWork = machineIdle is { } idle ? Math.Max(0, 100 - idle - Steal - ServerShare - (placement.LoadElsewhere ? 0 : load)) : 0;

        // The load's CPUs' idle, where they are the machine's CPUs apart from the server's: the machine's idle less the server's CPUs'.
        var apart = placement.Cores - placement.Server.Count;
        if (machineIdle is { } all && ServerCpusIdle is { } serverIdle && apart > 0 && !placement.Shared && !placement.LoadElsewhere
            && placement.Load.Count == apart)
        {
            LoadCpusIdle = Math.Clamp((all * placement.Cores - serverIdle * placement.Server.Count) / apart, 0, 100);
        }
    }

    /// <summary>The server's CPU in user mode, % of the machine.</summary>
    public double User { get; }

    public double Kernel { get; }

    /// <summary>The server's CPU, % of the machine.</summary>
    public double ServerShare => User + Kernel;

    /// <summary>How busy the server kept its own CPUs, %.</summary>
    public double ServerBusy { get; }

    public double? ServerCpusIdle { get; }

    public double? LoadCpusIdle { get; }

    public double LoadBusy { get; }

    public double Steal { get; }

    public double? GcPause { get; }

    public double Threads { get; }

    public double Contentions { get; }

    /// <summary>The machine's CPU used by neither the server nor the load, % of the machine.</summary>
    public double OtherWork { get; }

    private static double? Mean(IReadOnlyList<RunSample> seconds, Measurement measurement)
    {
        var values = seconds.Where(s => s.Values.ContainsKey(measurement.Name)).Select(s => s.Values[measurement.Name]).ToList();
        return values.Count == 0 ? null : values.Average();
    }
}

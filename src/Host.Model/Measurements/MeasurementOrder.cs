namespace Benchmarks.Host.Measurements;

/// <summary>
/// The order measurements are shown in, and which a short table shows, taken by role so that every
/// protocol's headline comes first: the rate, what completed and failed, the latency family, then
/// the server's CPU, the machine, the network and the load's own CPU. The end-of-run table and
/// <c>compare</c> read the same lists.
/// </summary>
internal static class MeasurementOrder
{
    private static readonly LatencyMeasures[] s_latencies = [LatencyMeasures.Http, LatencyMeasures.WebSocket, LatencyMeasures.Tcp];

    /// <summary>Every named measurement in showing order; a run's others follow it.</summary>
    public static IReadOnlyList<string> Full { get; } =
    [
        .. Names(MeasurementRole.Headline), .. Names(MeasurementRole.Completed), .. Names(MeasurementRole.Failures),
        .. s_latencies.SelectMany(f => f.All).Select(m => m.Name),
        HttpMeasures.Throughput.Name, SystemMeasures.Cpu.Name, SystemMeasures.CpuMean.Name, SystemMeasures.CpuUser.Name, SystemMeasures.CpuKernel.Name,
        SystemMeasures.WorkingSet.Name,
        SystemMeasures.MachineUser.Name, SystemMeasures.MachineKernel.Name, SystemMeasures.MachineIdle.Name, SystemMeasures.MachineSteal.Name,
        SystemMeasures.NetRx.Name, SystemMeasures.NetTx.Name, SystemMeasures.LinkSpeed.Name, SystemMeasures.Utilization.Name,
        SystemMeasures.LoadUser.Name, SystemMeasures.LoadKernel.Name, SystemMeasures.LoadCpuPerRequest.Name,
    ];

    /// <summary>
    /// The end-of-run table's: the rate, the failures, latency p50, p99 and max, the server's CPU
    /// split (user + kernel make its mean), the machine's idle, the network and the load's CPU.
    /// </summary>
    public static IReadOnlyList<string> Compact { get; } =
    [
        .. Names(MeasurementRole.Headline), .. Names(MeasurementRole.Failures),
        .. s_latencies.SelectMany(f => new[] { f.P50, f.P99, f.Maximum }).Select(m => m.Name),
        SystemMeasures.CpuUser.Name, SystemMeasures.CpuKernel.Name, SystemMeasures.MachineIdle.Name, SystemMeasures.NetRx.Name,
        SystemMeasures.LoadUser.Name, SystemMeasures.LoadKernel.Name,
    ];

    /// <summary>
    /// A comparison's short table: the rate, the failures, latency p50, p99 and max, the server's
    /// CPU, the machine's idle and the load's CPU (what completed follows the rate, so it is left out),
    /// then what ranks stacks: CPU per request, rate per CPU and peak memory per 1,000 connections.
    /// </summary>
    public static IReadOnlyList<string> Comparison { get; } =
    [
        .. Names(MeasurementRole.Headline), .. Names(MeasurementRole.Failures),
        .. s_latencies.SelectMany(f => new[] { f.P50, f.P99, f.Maximum }).Select(m => m.Name),
        SystemMeasures.CpuMean.Name, SystemMeasures.MachineIdle.Name, SystemMeasures.LoadUser.Name,
        RuntimeMeasures.CpuPerRequest.Name, EfficiencyMeasures.RatePerCpu.Name, EfficiencyMeasures.WorkingSetPer1kConnections.Name,
    ];

    /// <summary>Whether a measurement counts failures (a short table leaves out failure counts that were 0 on both sides).</summary>
    public static bool IsFailure(string name) => MeasurementCatalog.Find(name)?.Role == MeasurementRole.Failures;

    private static IEnumerable<string> Names(MeasurementRole role) => MeasurementCatalog.WithRole(role).Select(m => m.Name);
}

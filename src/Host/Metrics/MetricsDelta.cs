using System.Diagnostics;

namespace Benchmarks.Host.Metrics;

/// <summary>Turns two snapshots into the run's measurements over the time between them.</summary>
internal static class MetricsDelta
{
    public static SortedDictionary<string, double> Between(MetricsSnapshot start, MetricsSnapshot end, int cores, double? linkSpeedMbps)
    {
        ArgumentNullException.ThrowIfNull(start);
        ArgumentNullException.ThrowIfNull(end);
        var values = new SortedDictionary<string, double>(StringComparer.Ordinal);
        var seconds = Stopwatch.GetElapsedTime(start.Timestamp, end.Timestamp).TotalSeconds;
        if (seconds <= 0)
        {
            return values;
        }

        var capacity = seconds * cores;
        if (start.Server is { } s0 && end.Server is { } s1)
        {
            var user = Percent(s1.User - s0.User, capacity);
            var kernel = Percent(s1.Kernel - s0.Kernel, capacity);
            values["benchmarks/cpu/user"] = user;
            values["benchmarks/cpu/kernel"] = kernel;
            values["benchmarks/cpu"] = user + kernel;
            values["benchmarks/working-set"] = s1.WorkingSetBytes / (1024.0 * 1024.0);
        }

        if (start.Load is { } l0 && end.Load is { } l1)
        {
            values["load/cpu/user"] = Percent(l1.User - l0.User, capacity);
            values["load/cpu/kernel"] = Percent(l1.Kernel - l0.Kernel, capacity);
        }

        var machine = end.Machine - start.Machine;
        if (machine.Total > 0)
        {
            values["machine/cpu/user"] = machine.User / machine.Total * 100;
            values["machine/cpu/kernel"] = machine.Kernel / machine.Total * 100;
            values["machine/cpu/idle"] = machine.Idle / machine.Total * 100;
            values["machine/cpu/steal"] = machine.Steal / machine.Total * 100;
        }

        if (start.Network is { } n0 && end.Network is { } n1)
        {
            var rx = (n1.RxBytes - n0.RxBytes) * 8 / seconds / 1_000_000;
            var tx = (n1.TxBytes - n0.TxBytes) * 8 / seconds / 1_000_000;
            values["net/rx"] = rx;
            values["net/tx"] = tx;
            if (linkSpeedMbps is > 0)
            {
                values["net/link-speed"] = linkSpeedMbps.Value;
                values["net/utilization"] = Math.Max(rx, tx) / linkSpeedMbps.Value * 100;
            }
        }

        return values;
    }

    private static double Percent(double cpuSeconds, double capacitySeconds) => Math.Max(0, cpuSeconds) / capacitySeconds * 100;
}

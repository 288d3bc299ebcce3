using System.Diagnostics;
using Benchmarks.Host.Measurements;
using static Benchmarks.Host.Measurements.SystemMeasures;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Turns two snapshots into one interval's sample: the process, load, machine and interface
/// figures over the time between them, and the interface's byte counts since
/// <c>origin</c> (the start of the measured window). The local run and the agent both
/// sample through this, so a name means the same on both.
/// </summary>
internal static class MetricsDelta
{
    /// <summary>
    /// The shortest last, partial interval whose rates still count when a job or window ends inside
    /// it (shorter ones are noise; its byte totals always count).
    /// </summary>
    public static readonly TimeSpan ShortestLastInterval = TimeSpan.FromMilliseconds(200);

    public static SortedDictionary<string, double> Between(MetricsSnapshot start, MetricsSnapshot end, int cores, double? linkSpeedMbps,
        MetricsSnapshot? origin = null, bool rates = true)
    {
        ArgumentNullException.ThrowIfNull(start);
        ArgumentNullException.ThrowIfNull(end);
        var values = new SortedDictionary<string, double>(StringComparer.Ordinal);
        var seconds = Stopwatch.GetElapsedTime(start.Timestamp, end.Timestamp).TotalSeconds;
        if (origin?.Network is { } first && end.Network is { } last)
        {
            // Totals since the origin count whatever the interval's length.
            Set(values, NetRxBytes, last.RxBytes - first.RxBytes);
            Set(values, NetTxBytes, last.TxBytes - first.TxBytes);
            Set(values, NetDrops, last.Dropped - first.Dropped);
            Set(values, NetErrors, last.Errors - first.Errors);
            var moved = (last.RxPackets - first.RxPackets) + (last.TxPackets - first.TxPackets) + (last.Dropped - first.Dropped);
            if (moved > 0)
            {
                Set(values, NetDropShare, 100.0 * (last.Dropped - first.Dropped) / moved);
            }
        }

        if (seconds <= 0 || !rates)
        {
            return values;
        }

        var capacity = seconds * cores;
        if (start.Server is { } s0 && end.Server is { } s1)
        {
            var busy = SetSplit(values, s0, s1, capacity, CpuUser, CpuKernel, Cpu);
            Set(values, CpuMean, busy);
            Set(values, WorkingSet, s1.WorkingSetBytes / (1024.0 * 1024.0));
            if (s1.PrivateBytes is { } privateBytes)
            {
                Set(values, PrivateWorkingSet, privateBytes / (1024.0 * 1024.0));
            }
        }

        if (start.Load is { } l0 && end.Load is { } l1)
        {
            // The load process seen from outside (a local run's per-second series; its value is what the load reports).
            SetSplit(values, l0, l1, capacity, LoadUser, LoadKernel, total: null);
        }

        if (start.Database is { } d0 && end.Database is { } d1)
        {
            // The database the run started (postmaster and backends), on every path the same.
            SetSplit(values, d0, d1, capacity, DbUser, DbKernel, DbCpu);
        }

        if (start.Proxy is { } p0 && end.Proxy is { } p1)
        {
            // The reverse proxy in front of the server (nginx's master and workers, HAProxy's threads).
            SetSplit(values, p0, p1, capacity, ProxyUser, ProxyKernel, ProxyCpu);
        }

        var machine = end.Machine - start.Machine;
        if (machine.Total > 0)
        {
            Set(values, MachineUser, machine.User / machine.Total * 100);
            Set(values, MachineKernel, machine.Kernel / machine.Total * 100);
            Set(values, MachineIdle, machine.Idle / machine.Total * 100);
            Set(values, MachineSteal, machine.Steal / machine.Total * 100);
        }

        if (start.ServerCpus is { } c0 && end.ServerCpus is { } c1 && c1.Count == c0.Count && seconds > 0)
        {
            Set(values, ServerCpusIdle, Math.Clamp((c1.IdleSeconds - c0.IdleSeconds) / (seconds * c1.Count) * 100, 0, 100));
        }

        if (start.Network is { } n0 && end.Network is { } n1)
        {
            var rx = (n1.RxBytes - n0.RxBytes) * 8 / seconds / 1_000_000;
            var tx = (n1.TxBytes - n0.TxBytes) * 8 / seconds / 1_000_000;
            Set(values, NetRx, rx);
            Set(values, NetTx, tx);
            Set(values, NetRxPeak, rx);
            Set(values, NetTxPeak, tx);
            Set(values, NetRxPackets, (n1.RxPackets - n0.RxPackets) / seconds);
            Set(values, NetTxPackets, (n1.TxPackets - n0.TxPackets) / seconds);
            if (linkSpeedMbps is > 0)
            {
                Set(values, LinkSpeed, linkSpeedMbps.Value);
                Set(values, Utilization, Math.Max(rx, tx) / linkSpeedMbps.Value * 100);
            }
        }

        if (start.Runtime is { } r0 && end.Runtime is { } r1)
        {
            Runtime(values, r0, r1, seconds);
        }

        if (start.Limit is { } q0 && end.Limit is { } q1)
        {
            Limit(values, q0, q1);
        }

        return values;
    }

    /// <summary>A limit's counts over the interval: its periods and throttling, its OOM kills, and the peak memory charged to it so far.</summary>
    public static void Limit(SortedDictionary<string, double> values, Platform.ResourceLimitReading start, Platform.ResourceLimitReading end)
    {
        ArgumentNullException.ThrowIfNull(start);
        ArgumentNullException.ThrowIfNull(end);
        if (end.CountsPeriods)
        {
            var periods = Math.Max(0, end.Periods - start.Periods);
            var throttled = Math.Max(0, end.ThrottledPeriods - start.ThrottledPeriods);
            Set(values, LimitMeasures.Periods, periods);
            Set(values, LimitMeasures.ThrottledPeriods, throttled);
            Set(values, LimitMeasures.Throttled, Math.Max(0, (end.Throttled - start.Throttled).TotalMilliseconds));
            if (periods > 0)
            {
                // A second without work had no period to throttle: it has no share, rather than 0%.
                Set(values, LimitMeasures.ThrottledShare, 100.0 * throttled / periods);
            }
        }

        if (end.CountsMemory)
        {
            Set(values, LimitMeasures.OomKills, Math.Max(0, end.OomKills - start.OomKills));
        }

        if (end.CountsMemory && end.PeakMemoryBytes > 0)
        {
            Set(values, LimitMeasures.PeakMemory, end.PeakMemoryBytes / (1024.0 * 1024.0));
        }
    }

    /// <summary>
    /// The runtime's counters over the interval: an incrementing counter's increments per second
    /// (GCs, bytes allocated, contentions, work items), the others' last value, and the share of
    /// the interval the GC paused the process.
    /// </summary>
    public static void Runtime(SortedDictionary<string, double> values, RuntimeCounterSnapshot start, RuntimeCounterSnapshot end, double seconds)
    {
        foreach (var (key, total) in end.Totals)
        {
            values[key] = Math.Max(0, total - start.Totals.GetValueOrDefault(key)) / seconds;
        }

        foreach (var (key, value) in end.Gauges)
        {
            values[key] = value;
        }

        // The pause time is milliseconds paused, summed: per second of wall time, a share of it.
        if (values.TryGetValue(RuntimeMeasures.PauseTime.Name, out var pausedPerSecond))
        {
            values[RuntimeMeasures.GcPause.Name] = Math.Clamp(pausedPerSecond / 1000 * 100, 0, 100);
        }

    }

    private static void Set(SortedDictionary<string, double> values, Measurement measurement, double value) => values[measurement.Name] = value;

    /// <summary>A process's user and kernel time between two readings, and their sum, as shares of the machine; returns the sum.</summary>
    private static double SetSplit(SortedDictionary<string, double> values, ProcessCpuTimes from, ProcessCpuTimes to, double capacity, Measurement user,
        Measurement kernel, Measurement? total)
    {
        var inUser = Percent(to.User - from.User, capacity);
        var inKernel = Percent(to.Kernel - from.Kernel, capacity);
        Set(values, user, inUser);
        Set(values, kernel, inKernel);
        if (total is not null)
        {
            Set(values, total, inUser + inKernel);
        }

        return inUser + inKernel;
    }

    private static double Percent(double cpuSeconds, double capacitySeconds) => Math.Max(0, cpuSeconds) / capacitySeconds * 100;
}

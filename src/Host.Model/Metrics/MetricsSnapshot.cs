namespace Benchmarks.Host.Metrics;

/// <summary>All counters read at one instant; two snapshots give rates over the time between them.</summary>
internal sealed record MetricsSnapshot(long Timestamp, MachineCpuTimes Machine, ProcessCpuTimes? Server, ProcessCpuTimes? Load, NetworkCounters? Network,
    ProcessCpuTimes? Database = null, ProcessCpuTimes? Proxy = null)
{
    /// <summary>The measured .NET process's runtime counters, when a session reads them.</summary>
    public RuntimeCounterSnapshot? Runtime { get; init; }

    /// <summary>
    /// Idle seconds summed over the CPUs the measured process was pinned to, and how many they are;
    /// null when it was not pinned or the OS does not say.
    /// </summary>
    public (double IdleSeconds, int Count)? ServerCpus { get; init; }

    /// <summary>The measured process's CPU quota and memory limit counts, when it runs under one.</summary>
    public Platform.ResourceLimitReading? Limit { get; init; }
}

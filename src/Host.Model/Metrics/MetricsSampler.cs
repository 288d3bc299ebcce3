using System.Diagnostics;

namespace Benchmarks.Host.Metrics;

/// <summary>Reads the counters of a job: the machine, the measured process (and a load process beside it) and the interface.</summary>
internal sealed class MetricsSampler
{
    private readonly ISystemMetrics _metrics;

    private readonly Func<RuntimeCounterSnapshot?>? _runtime;

    private readonly Func<Platform.ResourceLimitReading?>? _limit;

    private readonly IReadOnlyList<int>? _serverCpus;

    /// <param name="runtime">The measured process's runtime counters at the instant of each snapshot (a .NET server with a counter session).</param>
    /// <param name="limit">The counts of the limit the measured process runs under, at the instant of each snapshot.</param>
    /// <param name="serverCpus">The CPUs the measured process is pinned to: their idle time is read too, so that work beside it on them shows.</param>
    /// <param name="capacity">The link's capacity as the operator knows it, in place of what the interface says.</param>
    public MetricsSampler(ISystemMetrics metrics, string? interfaceName, Func<RuntimeCounterSnapshot?>? runtime = null,
        Func<Platform.ResourceLimitReading?>? limit = null, IReadOnlyList<int>? serverCpus = null, LinkCapacity? capacity = null)
    {
        _metrics = metrics;
        _runtime = runtime;
        _limit = limit;
        _serverCpus = serverCpus is { Count: > 0 } ? serverCpus : null;
        InterfaceName = interfaceName;
        Capacity = interfaceName is null ? null : capacity ?? metrics.ReadLinkCapacity(interfaceName);
    }

    public string? InterfaceName { get; }

    /// <summary>What the interface's link carries at most, and the figure's source; null when unknown.</summary>
    public LinkCapacity? Capacity { get; }

    public double? LinkSpeedMbps => Capacity?.Mbps;

    /// <summary>
    /// A snapshot; a process id of 0 or less (or null) is not read. The measured process and the
    /// database are read with their descendants (a server that starts helpers, PostgreSQL's backend
    /// per connection), on every path alike; the load process alone (it reports its own CPU).
    /// </summary>
    public MetricsSnapshot Take(int? processId, int? loadProcessId = null, int? databaseProcessId = null, int? proxyProcessId = null) => new(
        Stopwatch.GetTimestamp(),
        _metrics.ReadMachineCpu(),
        processId is > 0 ? _metrics.ReadProcessTree(processId.Value, privateMemory: true) : null,
        loadProcessId is > 0 ? _metrics.ReadProcess(loadProcessId.Value) : null,
        InterfaceName is null ? null : _metrics.ReadNetwork(InterfaceName),
        databaseProcessId is > 0 ? _metrics.ReadProcessTree(databaseProcessId.Value) : null,
        proxyProcessId is > 0 ? _metrics.ReadProcessTree(proxyProcessId.Value) : null)
    {
        Runtime = _runtime?.Invoke(),
        Limit = _limit?.Invoke(),
        ServerCpus = _serverCpus is { } cpus && _metrics.ReadIdle(cpus) is { } idle ? (idle, cpus.Distinct().Count()) : null,
    };
}

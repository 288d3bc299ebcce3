using System.Diagnostics;

namespace Benchmarks.Host.Metrics;

/// <summary>Reads the counters of a run: the machine, the server process, the load process and the interface.</summary>
internal sealed class MetricsSampler
{
    private readonly ISystemMetrics _metrics;
    private readonly int _serverProcessId;
    private readonly int? _loadProcessId;

    public MetricsSampler(ISystemMetrics metrics, int serverProcessId, int? loadProcessId, string? interfaceName)
    {
        _metrics = metrics;
        _serverProcessId = serverProcessId;
        _loadProcessId = loadProcessId;
        InterfaceName = interfaceName;
        LinkSpeedMbps = interfaceName is null ? null : metrics.ReadLinkSpeed(interfaceName);
    }

    public string? InterfaceName { get; }

    public double? LinkSpeedMbps { get; }

    public MetricsSnapshot Take() => new(
        Stopwatch.GetTimestamp(),
        _metrics.ReadMachineCpu(),
        _metrics.ReadProcess(_serverProcessId),
        _loadProcessId is { } load ? _metrics.ReadProcess(load) : null,
        InterfaceName is null ? null : _metrics.ReadNetwork(InterfaceName));
}

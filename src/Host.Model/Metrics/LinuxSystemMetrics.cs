using Benchmarks.Host.Platform;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Metrics;

/// <summary>Linux: <c>/proc/stat</c>, <c>/proc/&lt;pid&gt;/stat</c>, <c>/sys/class/net</c> and the interface's qdisc.</summary>
[SupportedOSPlatform("linux")]
internal sealed class LinuxSystemMetrics : ISystemMetrics
{
    private readonly double _ticksPerSecond = LinuxNative.ClockTicksPerSecond();
    private readonly long _pageSize = Environment.SystemPageSize;
    private readonly SysClassNet _net = new();

    /// <summary>The interfaces a qdisc was found to shape (<see cref="ReadLinkCapacity"/>): their qdisc's drops are read with their counters.</summary>
    private readonly System.Collections.Concurrent.ConcurrentDictionary<string, bool> _shaped = new(StringComparer.Ordinal);

    public MachineCpuTimes ReadMachineCpu() => ProcStatParser.Parse(File.ReadAllText("/proc/stat"), _ticksPerSecond);

    public double? ReadIdle(IReadOnlyList<int> cpus) => ProcStatParser.ParseIdle(File.ReadAllText("/proc/stat"), _ticksPerSecond, cpus);

    public ProcessCpuTimes? ReadProcess(int processId)
    {
        try
        {
            return ProcPidStatParser.Parse(File.ReadAllText($"/proc/{processId}/stat"), _ticksPerSecond, _pageSize);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    public ProcessCpuTimes? ReadProcessTree(int processId, bool privateMemory = false) =>
        ProcessTreeStat.Read(processId, _ticksPerSecond, _pageSize, privateMemory);

    /// <summary>
    /// The interface's counters; on a link a qdisc shapes, its drops include the qdisc's, where a
    /// shaper that cannot keep up drops (one <c>tc</c> a sample, on shaped links only).
    /// </summary>
    public NetworkCounters? ReadNetwork(string interfaceName)
    {
        var counters = _net.ReadCounters(interfaceName);
        return counters is { } read && _shaped.ContainsKey(interfaceName) && QdiscRate.ReadDrops(interfaceName) is { } queued
            ? read with { Dropped = read.Dropped + queued }
            : counters;
    }

    /// <summary>The link's own speed, or the rate a qdisc shapes it to when that is lower (<see cref="QdiscRate"/>).</summary>
    public LinkCapacity? ReadLinkCapacity(string interfaceName)
    {
        var nominal = _net.ReadSpeed(interfaceName);
        if (QdiscRate.Read(interfaceName) is { } shaped && (nominal is null || shaped < nominal))
        {
            _shaped[interfaceName] = true;
            return new LinkCapacity(shaped, LinkCapacity.Qdisc);
        }

        return nominal is { } speed ? new LinkCapacity(speed, LinkCapacity.Nic) : null;
    }

    public string? ReadProcessorModel()
    {
        try
        {
            return CpuInfoParser.ModelName(File.ReadAllText("/proc/cpuinfo"));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}

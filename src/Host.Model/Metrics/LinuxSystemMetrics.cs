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

    public ProcessCpuTimes? ReadProcessTree(int processId) => ProcessTreeStat.Read(processId, _ticksPerSecond, _pageSize);

    public NetworkCounters? ReadNetwork(string interfaceName) => _net.ReadCounters(interfaceName);

    /// <summary>The link's own speed, or the rate a qdisc shapes it to when that is lower (<see cref="QdiscRate"/>).</summary>
    public LinkCapacity? ReadLinkCapacity(string interfaceName)
    {
        var nominal = _net.ReadSpeed(interfaceName);
        return QdiscRate.Read(interfaceName) is { } shaped && (nominal is null || shaped < nominal) ? new LinkCapacity(shaped, LinkCapacity.Qdisc)
            : nominal is { } speed ? new LinkCapacity(speed, LinkCapacity.Nic)
            : null;
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

using Benchmarks.Host.Platform;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Metrics;

/// <summary>Linux: <c>/proc/stat</c>, <c>/proc/&lt;pid&gt;/stat</c> and <c>/sys/class/net</c>.</summary>
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

    public double? ReadLinkSpeed(string interfaceName) => _net.ReadSpeed(interfaceName);

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

using System.Diagnostics;
using System.Net.NetworkInformation;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Metrics;

/// <summary>Windows: <c>GetSystemTimes</c>, the Process API and <see cref="NetworkInterface"/>.</summary>
[SupportedOSPlatform("windows")]
internal sealed partial class WindowsSystemMetrics : ISystemMetrics
{
    public MachineCpuTimes ReadMachineCpu()
    {
        if (!GetSystemTimes(out var idle, out var kernel, out var user))
        {
            throw new InvalidOperationException($"GetSystemTimes failed with error {Marshal.GetLastPInvokeError()}.");
        }

        // The kernel time GetSystemTimes reports includes idle time.
        const double TicksPerSecond = 10_000_000.0;
        return new MachineCpuTimes(user / TicksPerSecond, (kernel - idle) / TicksPerSecond, idle / TicksPerSecond, 0);
    }

    /// <summary>
    /// Each processor's idle time from
    /// <c>NtQuerySystemInformation(SystemProcessorPerformanceInformation)</c> (100 ns units),
    /// summed over <paramref name="cpus"/>.
    /// </summary>
    public double? ReadIdle(IReadOnlyList<int> cpus)
    {
        ArgumentNullException.ThrowIfNull(cpus);
        const int SystemProcessorPerformanceInformation = 8;
        const int EntryBytes = 48; // IdleTime, KernelTime, UserTime, DpcTime, InterruptTime (8 bytes each), InterruptCount (4) and padding
        var buffer = new byte[EntryBytes * 64]; // one processor group, as the call reports
        if (NtQuerySystemInformation(SystemProcessorPerformanceInformation, buffer, buffer.Length, out var length) != 0)
        {
            return null;
        }

        var processors = length / EntryBytes;
        if (cpus.Any(cpu => cpu < 0 || cpu >= processors))
        {
            return null;
        }

        return cpus.Distinct().Sum(cpu => BitConverter.ToInt64(buffer, cpu * EntryBytes)) / 10_000_000.0;
    }

    public ProcessCpuTimes? ReadProcess(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return new ProcessCpuTimes(process.UserProcessorTime.TotalSeconds, process.PrivilegedProcessorTime.TotalSeconds, process.WorkingSet64);
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException)
        {
            return null;
        }
    }

    public ProcessCpuTimes? ReadProcessTree(int processId, bool privateMemory = false) => WindowsProcessTree.Read(processId, privateMemory);

    public NetworkCounters? ReadNetwork(string interfaceName)
    {
        var nic = Find(interfaceName);
        if (nic is null)
        {
            return null;
        }

        var statistics = nic.GetIPStatistics();
        return new NetworkCounters(
            statistics.BytesReceived,
            statistics.BytesSent,
            statistics.UnicastPacketsReceived + statistics.NonUnicastPacketsReceived,
            statistics.UnicastPacketsSent + statistics.NonUnicastPacketsSent,
            statistics.IncomingPacketsDiscarded + statistics.OutgoingPacketsDiscarded,
            statistics.IncomingPacketsWithErrors + statistics.OutgoingPacketsWithErrors);
    }

    public LinkCapacity? ReadLinkCapacity(string interfaceName)
    {
        var nic = Find(interfaceName);
        return nic is null || nic.NetworkInterfaceType == NetworkInterfaceType.Loopback || nic.Speed <= 0
            ? null
            : new LinkCapacity(nic.Speed / 1_000_000.0, LinkCapacity.Nic);
    }

    /// <summary>The processor's name as Windows records it for the first CPU.</summary>
    public string? ReadProcessorModel()
    {
        using var key = Microsoft.Win32.Registry.LocalMachine.OpenSubKey(@"HARDWARE\DESCRIPTION\System\CentralProcessor\0");
        return (key?.GetValue("ProcessorNameString") as string)?.Trim() is { Length: > 0 } name
            ? name
            : Environment.GetEnvironmentVariable("PROCESSOR_IDENTIFIER");
    }

    private static NetworkInterface? Find(string name) =>
        NetworkInterfaceLocator.All().FirstOrDefault(n => string.Equals(n.Name, name, StringComparison.OrdinalIgnoreCase));

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetSystemTimes(out long idleTime, out long kernelTime, out long userTime);

    [LibraryImport("ntdll.dll")]
    private static partial int NtQuerySystemInformation(int informationClass, [Out] byte[] information, int length, out int returnLength);
}

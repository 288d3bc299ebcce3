using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Windows: a process's private working set, <c>PROCESS_MEMORY_COUNTERS_EX2.PrivateWorkingSetSize</c>
/// from <c>GetProcessMemoryInfo</c> (Windows 10 1809 and later): its resident pages no other process
/// shares, the figure Linux's <c>smaps_rollup</c> gives as <c>Private_Clean</c> + <c>Private_Dirty</c>.
/// Not <c>Process.PrivateMemorySize64</c>, which is the commit charge here and virtual data on Linux.
/// </summary>
[SupportedOSPlatform("windows")]
internal static partial class WindowsProcessMemory
{
    private const uint QueryLimitedInformation = 0x1000;

    /// <summary>
    /// Null when the process cannot be opened or Windows does not fill the private working set
    /// (before 1809, or a Windows look-alike that fills only the older counters).
    /// </summary>
    public static unsafe long? PrivateWorkingSet(int processId)
    {
        var process = OpenProcess(QueryLimitedInformation, false, (uint)processId);
        if (process == 0)
        {
            return null;
        }

        try
        {
            var counters = new Counters { Size = (uint)sizeof(Counters) };
            return GetProcessMemoryInfo(process, ref counters, counters.Size) && counters.PrivateWorkingSetSize > 0
                ? (long)counters.PrivateWorkingSetSize
                : null;
        }
        finally
        {
            CloseHandle(process);
        }
    }

    /// <summary>PROCESS_MEMORY_COUNTERS_EX2.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct Counters
    {
        public uint Size;
        public uint PageFaultCount;
        public nuint PeakWorkingSetSize;
        public nuint WorkingSetSize;
        public nuint QuotaPeakPagedPoolUsage;
        public nuint QuotaPagedPoolUsage;
        public nuint QuotaPeakNonPagedPoolUsage;
        public nuint QuotaNonPagedPoolUsage;
        public nuint PagefileUsage;
        public nuint PeakPagefileUsage;
        public nuint PrivateUsage;
        public nuint PrivateWorkingSetSize;
        public ulong SharedCommitUsage;
    }

    [LibraryImport("kernel32.dll", SetLastError = true)]
    private static partial nint OpenProcess(uint access, [MarshalAs(UnmanagedType.Bool)] bool inherit, uint processId);

    [LibraryImport("kernel32.dll", EntryPoint = "K32GetProcessMemoryInfo", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetProcessMemoryInfo(nint process, ref Counters counters, uint size);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool CloseHandle(nint handle);
}

using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

/// <summary>
/// One Job Object per host process with kill-on-close: the host joins it when it is made, so
/// every child it starts is in it from birth (and each is assigned too), with the children they
/// start; Windows ends them all when the host's last handle to the job closes, which happens
/// however the host ends, killed included.
/// </summary>
[SupportedOSPlatform("windows")]
internal static partial class WindowsJobObject
{
    private const int JobObjectExtendedLimitInformation = 9;
    private const uint KillOnJobClose = 0x2000;
    private const uint JobMemoryLimitFlag = 0x200;
    private const int JobObjectCpuRateControlInformation = 15;
    private const uint CpuRateEnable = 0x1;
    private const uint CpuRateHardCap = 0x4;

    private static readonly Lazy<IntPtr> s_job = new(Create);

    /// <summary>Makes the job and joins it, before this process starts its first child.</summary>
    public static void Enter() => _ = s_job.Value;

    /// <summary>Puts <paramref name="process"/> in the job; false when Windows refused (the child then lives on if the host is killed).</summary>
    public static bool Assign(Process process)
    {
        ArgumentNullException.ThrowIfNull(process);
        var job = s_job.Value;
        return job != IntPtr.Zero && AssignProcessToJobObject(job, process.Handle);
    }

    /// <summary>
    /// A job of its own limits (nested in the kill-on-close one; Windows 8 and later): the memory its
    /// processes may commit together, and a hard cap on their CPU time in 1/10,000ths of the
    /// machine (0: none). Zero when Windows refused, and <paramref name="refused"/> says which part, with its error code.
    /// </summary>
    public static IntPtr CreateLimited(uint cpuRate, ulong jobMemoryBytes, out string? refused)
    {
        refused = null;
        var job = CreateJobObjectW(IntPtr.Zero, null);
        if (job == IntPtr.Zero)
        {
            refused = $"the job itself (error {Marshal.GetLastPInvokeError()})";
            return IntPtr.Zero;
        }

        var limits = new ExtendedLimits { Basic = new BasicLimits { LimitFlags = KillOnJobClose | (jobMemoryBytes > 0
            ? JobMemoryLimitFlag
            : 0) }, JobMemoryLimit = (nuint)jobMemoryBytes };
        var rate = new CpuRateControl { ControlFlags = cpuRate > 0 ? CpuRateEnable | CpuRateHardCap : 0, CpuRate = cpuRate };
        if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation, ref limits, (uint)Marshal.SizeOf<ExtendedLimits>()))
        {
            refused = $"the memory limit (error {Marshal.GetLastPInvokeError()})";
        }
        else if (cpuRate > 0 && !SetCpuRate(job, JobObjectCpuRateControlInformation, ref rate, (uint)Marshal.SizeOf<CpuRateControl>()))
        {
            refused = $"the CPU rate control (error {Marshal.GetLastPInvokeError()}; Windows 8 or later has it, Wine does not)";
        }

        if (refused is not null)
        {
            CloseHandle(job);
            return IntPtr.Zero;
        }

        return job;
    }

    /// <summary>Puts <paramref name="process"/> in a job of <see cref="CreateLimited"/>.</summary>
    public static bool AssignTo(IntPtr job, Process process)
    {
        ArgumentNullException.ThrowIfNull(process);
        return AssignProcessToJobObject(job, process.Handle);
    }

    /// <summary>The most memory the job's processes have committed together (bytes; 0 when Windows does not say).</summary>
    public static long PeakMemory(IntPtr job)
    {
        var limits = default(ExtendedLimits);
        return QueryInformationJobObject(job, JobObjectExtendedLimitInformation, ref limits, (uint)Marshal.SizeOf<ExtendedLimits>(), IntPtr.Zero)
            ? (long)limits.PeakJobMemoryUsed
            : 0;
    }

    /// <summary>Closes a job of <see cref="CreateLimited"/>: its processes end with it.</summary>
    public static void Close(IntPtr job) => CloseHandle(job);

    private static IntPtr Create()
    {
        var job = CreateJobObjectW(IntPtr.Zero, null);
        if (job == IntPtr.Zero)
        {
            return IntPtr.Zero;
        }

        var limits = new ExtendedLimits { Basic = new BasicLimits { LimitFlags = KillOnJobClose } };
        if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation, ref limits, (uint)Marshal.SizeOf<ExtendedLimits>()))
        {
            CloseHandle(job);
            return IntPtr.Zero;
        }

        // This process joins it too, so that every child it starts from now on is in the job from its first instruction
        // (a child is born in its parent's job): none escapes by starting just as this process is killed, before it is
        // assigned. Refused where this process is in a job that cannot nest (before Windows 8); assigning each child still works.
        using (var self = Process.GetCurrentProcess())
        {
            _ = AssignProcessToJobObject(job, self.Handle);
        }

        // Never closed: the handle lives as long as this process, and closing it is what ends the children.
        return job;
    }

    [LibraryImport("kernel32.dll", SetLastError = true, StringMarshalling = StringMarshalling.Utf16)]
    private static partial IntPtr CreateJobObjectW(IntPtr attributes, string? name);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool SetInformationJobObject(IntPtr job, int informationClass, ref ExtendedLimits information, uint length);

    [LibraryImport("kernel32.dll", EntryPoint = "SetInformationJobObject", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool SetCpuRate(IntPtr job, int informationClass, ref CpuRateControl information, uint length);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool QueryInformationJobObject(IntPtr job, int informationClass, ref ExtendedLimits information, uint length, IntPtr returnLength);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool AssignProcessToJobObject(IntPtr job, IntPtr process);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool CloseHandle(IntPtr handle);

    /// <summary>JOBOBJECT_BASIC_LIMIT_INFORMATION.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct BasicLimits
    {
        public long PerProcessUserTimeLimit;
        public long PerJobUserTimeLimit;
        public uint LimitFlags;
        public nuint MinimumWorkingSetSize;
        public nuint MaximumWorkingSetSize;
        public uint ActiveProcessLimit;
        public nuint Affinity;
        public uint PriorityClass;
        public uint SchedulingClass;
    }

    /// <summary>JOBOBJECT_CPU_RATE_CONTROL_INFORMATION with a CpuRate.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct CpuRateControl
    {
        public uint ControlFlags;
        public uint CpuRate;
    }

    /// <summary>JOBOBJECT_EXTENDED_LIMIT_INFORMATION (IO_COUNTERS inlined as six counters).</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct ExtendedLimits
    {
        public BasicLimits Basic;
        public ulong ReadOperationCount;
        public ulong WriteOperationCount;
        public ulong OtherOperationCount;
        public ulong ReadTransferCount;
        public ulong WriteTransferCount;
        public ulong OtherTransferCount;
        public nuint ProcessMemoryLimit;
        public nuint JobMemoryLimit;
        public nuint PeakProcessMemoryUsed;
        public nuint PeakJobMemoryUsed;
    }
}

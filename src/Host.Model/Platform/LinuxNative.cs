using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

[SupportedOSPlatform("linux")]
internal static partial class LinuxNative
{
    private const int ScClockTicks = 2;

    private const int ScProcessorsOnline = 84;

    public const int SigTerm = 15;

    public const int SigInt = 2;

    public static double ClockTicksPerSecond()
    {
        var ticks = SysConf(ScClockTicks);
        return ticks > 0 ? ticks : 100;
    }

    /// <summary>The CPUs online on the machine, whatever this process's affinity.</summary>
    public static int ProcessorsOnline()
    {
        var count = SysConf(ScProcessorsOnline);
        return count > 0 ? (int)count : Environment.ProcessorCount;
    }

    [LibraryImport("libc", EntryPoint = "sysconf")]
    private static partial long SysConf(int name);

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    public static partial int Kill(int pid, int signal);
}

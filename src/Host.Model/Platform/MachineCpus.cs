using System.Runtime.InteropServices;

namespace Benchmarks.Host.Platform;

/// <summary>
/// The machine's CPU count — what "% of the machine" divides by. Not
/// <see cref="Environment.ProcessorCount"/>: that is the count this process may run on, 1 for a
/// load generator pinned to one CPU, which would make its CPU share read as a share of one CPU.
/// </summary>
internal static partial class MachineCpus
{
    private const ushort AllProcessorGroups = 0xFFFF;

    public static int Count { get; } = Read();

    /// <summary>
    /// The CPUs this process may run on when they are fewer than the machine's (an agent started
    /// under <c>taskset</c> as a box of a lab on one machine), else null.
    /// </summary>
    public static IReadOnlyList<int>? Confined()
    {
        if (Environment.ProcessorCount >= Count || Count > 64 || !(OperatingSystem.IsLinux() || OperatingSystem.IsWindows()))
        {
            return null;
        }

        using var self = System.Diagnostics.Process.GetCurrentProcess();
        var mask = (long)self.ProcessorAffinity;
        return [.. Enumerable.Range(0, Count).Where(cpu => (mask & (1L << cpu)) != 0)];
    }

    private static int Read()
    {
        if (OperatingSystem.IsLinux())
        {
            return LinuxNative.ProcessorsOnline();
        }

        if (OperatingSystem.IsWindows())
        {
            var count = (int)GetActiveProcessorCount(AllProcessorGroups);
            return count > 0 ? count : Environment.ProcessorCount;
        }

        return Environment.ProcessorCount;
    }

    [LibraryImport("kernel32.dll")]
    private static partial uint GetActiveProcessorCount(ushort groupNumber);
}

using System.Diagnostics;

namespace Benchmarks.Load.Statistics;

/// <summary>This process's CPU time by mode, read at the edges of a measured window.</summary>
internal readonly record struct ProcessCpu(TimeSpan User, TimeSpan Kernel, long Timestamp)
{
    public static ProcessCpu Now()
    {
        using var self = Process.GetCurrentProcess();
        return new ProcessCpu(self.UserProcessorTime, self.PrivilegedProcessorTime, Stopwatch.GetTimestamp());
    }

    /// <summary>CPU seconds in each mode from <paramref name="start"/> to this reading, and the wall-clock seconds between.</summary>
    public (double User, double Kernel, double Seconds) Since(ProcessCpu start) =>
        ((User - start.User).TotalSeconds, (Kernel - start.Kernel).TotalSeconds, Stopwatch.GetElapsedTime(start.Timestamp, Timestamp).TotalSeconds);
}

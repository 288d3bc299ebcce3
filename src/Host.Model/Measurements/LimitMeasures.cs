using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// A job under a CPU quota and a memory limit (<c>run --server-cpu-limit/--server-memory-limit</c>,
/// crank's <c>cpuLimitRatio</c>/<c>memoryLimitInBytes</c>): the quota's scheduling periods and
/// throttling under crank's names, read each interval from the limit's <c>cpu.stat</c>, the
/// processes killed for memory and the peak memory charged to the limit; and what the .NET
/// runtime inside saw of them. Counts per interval add up over the window.
/// </summary>
internal static class LimitMeasures
{
    /// <summary>The run parameter that holds the server's CPU quota in CPUs ("1.5"), when it had one.</summary>
    public const string CpuLimitParameter = "server-cpu-limit";

    /// <summary>The run parameter that holds the server's memory limit ("512MB"), when it had one.</summary>
    public const string MemoryLimitParameter = "server-memory-limit";

    public static readonly Measurement Periods = Sampled("benchmarks/cpu/periods/total", "count", Sum, Neither,
        "Scheduling periods (100 ms) of the CPU quota in which the process had work, over the intervals", Sum);
    public static readonly Measurement ThrottledPeriods = Sampled("benchmarks/cpu/periods/throttled", "count", Sum, Lower,
        "Periods of the CPU quota that ended with the process throttled (its quota used up), over the intervals", Sum);
    public static readonly Measurement Throttled = Sampled("benchmarks/cpu/throttled", "ms", Sum, Lower,
        "Time the CPU quota held the process's runnable threads back, over the intervals (ms; summed over CPUs)", Sum);
    public static readonly Measurement ThrottledShare = Sampled("benchmarks/cpu/throttled/share", "%", Avg, Lower,
        "Share of the CPU quota's periods that were throttled, mean of the intervals with work (%)", Avg);
    public static readonly Measurement OomKills = Sampled("benchmarks/memory/oom-kills", "count", Sum, Lower,
        "Processes the memory limit killed (out of memory), over the intervals", Sum);
    public static readonly Measurement PeakMemory = Sampled("benchmarks/memory/peak", "MB", Max, Lower,
        "Peak memory charged to the memory limit: what its processes allocated and the pages they were first to read (anonymous memory, page cache, " +
        "kernel memory); shared library pages another process read first are not charged, so it can sit below the working set. Largest interval (MB)",
        Max);

    /// <summary>What the server's runtime saw of its limits, from its own report.</summary>
    public static readonly Measurement Processors = new("benchmarks/processor-count", "count", Max, Neither,
        "Processors the server's .NET runtime saw (Environment.ProcessorCount: its CPU affinity, or a CPU quota rounded up)", Max);
    public static readonly Measurement HeapLimit = new("benchmarks/gc-heap-limit", "MB", Max, Neither,
        "Memory the server's GC may use (its heap hard limit under a memory limit: 75% of it by default; else the machine's memory)", Max);

    public static IReadOnlyList<Measurement> All { get; } = [Periods, ThrottledPeriods, Throttled, ThrottledShare, OomKills, PeakMemory, Processors, HeapLimit];

    private static Measurement Sampled(string name, string unit, Operation aggregate, Better better, string description, Operation reduce) =>
        new(name, unit, aggregate, better, description, reduce) { Sampled = true };
}

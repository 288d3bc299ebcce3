namespace Benchmarks.Host.Platform;

/// <summary>
/// A resource limit's counts since it was made: the CPU quota's scheduling periods with work in
/// them, those the quota throttled and for how long, the processes killed for memory, and the peak
/// of memory used (bytes; 0 where unknown).
/// </summary>
internal sealed record ResourceLimitReading(long Periods, long ThrottledPeriods, TimeSpan Throttled, long OomKills, long PeakMemoryBytes)
{
    /// <summary>The periods and throttling are counted (a CPU quota where the OS reports them).</summary>
    public bool CountsPeriods { get; init; }

    /// <summary>The OOM kills and peak memory are counted (a memory limit).</summary>
    public bool CountsMemory { get; init; }

    public static ResourceLimitReading None { get; } = new(0, 0, TimeSpan.Zero, 0, 0);
}

using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// Inside a .NET server: its runtime's counters, sampled each second out of process over EventPipe
/// under crank's names (<c>runtime-counter/*</c> for System.Runtime, <c>aspnet-counter/*</c> and
/// <c>kestrel-counter/*</c> for ASP.NET Core's), what the pause time gives (<c>runtime/gc/pause</c>),
/// and the window's costs per request: what a request allocates, how many collections and
/// thread-pool hops it causes, and the server CPU it takes.
/// </summary>
internal static class RuntimeMeasures
{
    /// <summary>The name prefix of System.Runtime's counters, as crank's controller names them.</summary>
    public const string RuntimeCounterPrefix = "runtime-counter/";

    public static readonly Measurement CpuUsage = Counter("cpu-usage", "%", Avg, Neither,
        "CPU usage as the runtime reports it, mean of the seconds (% of the CPUs the process may use)");
    public static readonly Measurement WorkingSet = Counter("working-set", "MB", Max, Lower, "Working set as the runtime reports it, largest second (MB)");
    public static readonly Measurement HeapSize = Counter("gc-heap-size", "MB", Max, Lower, "GC heap size, largest second (MB)");
    public static readonly Measurement Committed = Counter("gc-committed", "MB", Max, Lower, "Memory committed by the GC, largest second (MB)");
    public static readonly Measurement Gen0 = Counter("gen-0-gc-count", "/s", Avg, Lower, "Collections of gen 0 (every collection), mean per second");
    public static readonly Measurement Gen1 = Counter("gen-1-gc-count", "/s", Avg, Lower, "Collections of gen 1 (with gen 2's), mean per second");
    public static readonly Measurement Gen2 = Counter("gen-2-gc-count", "/s", Avg, Lower, "Full (gen 2) collections, mean per second");
    public static readonly Measurement Gen0Budget = Counter("gen-0-gc-budget", "MB", Max, Neither, "Gen 0 allocation budget, largest second (MB)");
    public static readonly Measurement PauseTime = Counter("total-pause-time-by-gc", "ms/s", Avg, Lower,
        "Time the GC paused the process, mean per second (ms)");
    public static readonly Measurement TimeInGc = Counter("time-in-gc", "%", Max, Lower,
        "Time in GC since the previous collection as the runtime reports it, largest second (%)");
    public static readonly Measurement Gen0Size = Counter("gen-0-size", "bytes", Max, Neither, "Gen 0 size, largest second (bytes)");
    public static readonly Measurement Gen1Size = Counter("gen-1-size", "bytes", Max, Neither, "Gen 1 size, largest second (bytes)");
    public static readonly Measurement Gen2Size = Counter("gen-2-size", "bytes", Max, Neither, "Gen 2 size, largest second (bytes)");
    public static readonly Measurement LohSize = Counter("loh-size", "bytes", Max, Neither, "Large object heap size, largest second (bytes)");
    public static readonly Measurement PohSize = Counter("poh-size", "bytes", Max, Neither, "Pinned object heap size, largest second (bytes)");
    public static readonly Measurement AllocRate = Counter("alloc-rate", "B/s", Avg, Lower, "Bytes allocated on the managed heap, mean per second");
    public static readonly Measurement Fragmentation = Counter("gc-fragmentation", "%", Max, Lower, "GC heap fragmentation, largest second (%)");
    public static readonly Measurement Assemblies = Counter("assembly-count", "count", Max, Neither, "Assemblies loaded, largest second");
    public static readonly Measurement Exceptions = Counter("exception-count", "/s", Avg, Lower, "Exceptions thrown, mean per second");
    public static readonly Measurement Threads = Counter("threadpool-thread-count", "count", Max, Neither, "Thread-pool threads, largest second");
    public static readonly Measurement Contentions = Counter("monitor-lock-contention-count", "/s", Avg, Lower,
        "Lock contentions (a thread waited for a Monitor lock), mean per second");
    public static readonly Measurement QueueLength = Counter("threadpool-queue-length", "count", Max, Lower,
        "Work items waiting in the thread pool's queue, largest second");
    public static readonly Measurement WorkItems = Counter("threadpool-completed-items-count", "/s", Avg, Neither,
        "Thread-pool work items completed, mean per second");
    public static readonly Measurement Timers = Counter("active-timer-count", "count", Max, Neither, "Active timers, largest second");
    public static readonly Measurement IlBytesJitted = Counter("il-bytes-jitted", "bytes", Max, Neither,
        "IL bytes compiled by the JIT so far, last second (bytes)");
    public static readonly Measurement MethodsJitted = Counter("methods-jitted-count", "count", Max, Neither,
        "Methods compiled by the JIT so far, last second");
    public static readonly Measurement TimeInJit = Counter("time-in-jit", "ms/s", Avg, Neither, "Time the JIT compiled, mean per second (ms)");

    /// <summary>The share of each second the runtime paused the process for collections, from its total pause time.</summary>
    public static readonly Measurement GcPause = new("runtime/gc/pause", "%", Avg, Lower,
        "Time the GC paused the server, mean of the seconds (% of wall time)") { Sampled = true };

    /// <summary>
    /// Why the thread pool changed its thread count, from the runtime's own adjustment events
    /// (<c>ThreadPoolWorkerThreadAdjustment/Adjustment</c>): the adjustments it made because work
    /// waited with no thread free for longer than the pool allows (starvation), and those it made
    /// because pool threads blocked in waits the runtime knows of (<c>Task.Wait</c>, <c>.Result</c>:
    /// cooperative blocking). Hill climbing's moves are not counted: they follow the throughput, not a wait.
    /// </summary>
    public static readonly Measurement StarvationAdjustments = new("runtime/threadpool/starvation-adjustments", "count", Sum, Lower,
        "Thread-pool adjustments made because work waited with no thread free (starvation), over the window") { Sampled = true };

    public static readonly Measurement BlockingAdjustments = new("runtime/threadpool/blocking-adjustments", "count", Sum, Lower,
        "Thread-pool adjustments made because pool threads blocked in waits (Task.Wait, .Result), over the window") { Sampled = true };

    /// <summary>
    /// Per request, over the window: the figures two versions of a stack are compared by. Machines
    /// in one role average them: a cost per request does not add up.
    /// </summary>
    public static readonly Measurement AllocatedPerRequest = new("runtime/allocated-per-request", "bytes", Avg, Lower,
        "Bytes the server allocated per request (or message) over the window", reduce: Avg) { Format = "n0" };
    public static readonly Measurement GcsPer1kRequests = new("runtime/gcs-per-1k-requests", "count", Avg, Lower,
        "Collections per 1,000 requests (or messages) over the window", reduce: Avg) { Format = "n2" };
    public static readonly Measurement WorkItemsPerRequest = new("runtime/work-items-per-request", "count", Avg, Lower,
        "Thread-pool work items per request (or message) over the window: how often a request changes threads", reduce: Avg) { Format = "n2" };
    public static readonly Measurement CpuPerRequest = new("benchmarks/cpu-per-request", "us", Avg, Lower,
        "Server CPU time per request (or message) over the window, user + kernel (us)", reduce: Avg);

    /// <summary>Where a counter's measurement name starts, by provider, as crank's controller names them.</summary>
    public static string NameOf(string provider, string counter) => provider switch
    {
        "System.Runtime" => RuntimeCounterPrefix + counter,
        "Microsoft.AspNetCore.Hosting" => "aspnet-counter/" + counter,
        "Microsoft-AspNetCore-Server-Kestrel" => "kestrel-counter/" + counter,
        "System.Net.Sockets" => "sockets-counter/" + counter,
        _ => $"counter/{provider}/{counter}",
    };

    public static IReadOnlyList<Measurement> All { get; } =
    [
        CpuUsage, WorkingSet, HeapSize, Committed, Gen0, Gen1, Gen2, Gen0Budget, PauseTime, TimeInGc, Gen0Size, Gen1Size, Gen2Size, LohSize, PohSize,
        AllocRate, Fragmentation, Assemblies, Exceptions, Threads, Contentions, QueueLength, WorkItems, Timers, IlBytesJitted, MethodsJitted, TimeInJit,
        GcPause, StarvationAdjustments, BlockingAdjustments, AllocatedPerRequest, GcsPer1kRequests, WorkItemsPerRequest, CpuPerRequest,
    ];

    private static Measurement Counter(string counter, string unit, Operation aggregate, Better better, string description) =>
        Measurement.ServerCounter(RuntimeCounterPrefix + counter, unit, aggregate, better, description);
}

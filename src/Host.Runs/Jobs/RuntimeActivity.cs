using System.Globalization;
using System.Runtime;

namespace Benchmarks.Host.Jobs;

/// <summary>
/// What a .NET server's runtime has done so far, printed once a second by <c>serve --report-runtime</c>
/// as <c>#runtime jit-methods=N jit-ms=M allocated=B work-items=W processors=P memory=L</c>: methods compiled by the JIT (tier 0,
/// instrumented tier, tier 1, OSR), the time spent compiling them, the bytes the process has
/// allocated on the managed heap, and the work items the thread pool has run (each a hop from
/// the thread that queued it: per request, they show how often a request changes threads). A server whose JIT is still compiling is not yet at its steady
/// state, however flat its throughput looks; the allocated bytes over a window divided by the
/// requests in it are what a request allocates. The processors and the memory the GC may use are
/// what the runtime made of the process's limits (a CPU quota, a memory limit) at its start.
/// </summary>
internal readonly record struct RuntimeActivity(long JitMethods, double JitMilliseconds, long AllocatedBytes = -1, long WorkItems = -1, int Processors = -1,
    long MemoryLimitBytes = -1)
{
    public const string Prefix = "#runtime ";

    public static RuntimeActivity Now() => new(
        JitInfo.GetCompiledMethodCount(currentThread: false), JitInfo.GetCompilationTime(currentThread: false).TotalMilliseconds,
        GC.GetTotalAllocatedBytes(precise: true), ThreadPool.CompletedWorkItemCount,
        Environment.ProcessorCount, GC.GetGCMemoryInfo().TotalAvailableMemoryBytes);

    public string Format() =>
        string.Create(CultureInfo.InvariantCulture,
            $"{Prefix}jit-methods={JitMethods} jit-ms={JitMilliseconds:0.0} allocated={AllocatedBytes} work-items={WorkItems} processors={Processors} " +
            $"memory={MemoryLimitBytes}");

    public static RuntimeActivity? Parse(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        if (!line.StartsWith(Prefix, StringComparison.Ordinal))
        {
            return null;
        }

        long? methods = null;
        double? milliseconds = null;
        long allocated = -1;
        long workItems = -1;
        var processors = -1;
        long memory = -1;
        foreach (var part in line[Prefix.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            var (name, value) = part.IndexOf('=', StringComparison.Ordinal) is var at and > 0 ? (part[..at], part[(at + 1)..]) : (part, "");
            if (name == "jit-methods" && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var m))
            {
                methods = m;
            }
            else if (name == "jit-ms" && double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var ms))
            {
                milliseconds = ms;
            }
            else if (name == "allocated" && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var bytes))
            {
                allocated = bytes;
            }
            else if (name == "work-items" && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var items))
            {
                workItems = items;
            }
            else if (name == "processors" && int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var cpus))
            {
                processors = cpus;
            }
            else if (name == "memory" && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var limit))
            {
                memory = limit;
            }
        }

        return methods is { } count && milliseconds is { } time ? new RuntimeActivity(count, time, allocated, workItems, processors, memory) : null;
    }
}

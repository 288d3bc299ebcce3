using System.Diagnostics;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

/// <summary>
/// A Job Object of its own for the limits (nested in the one that ends this tool's children with
/// it): a hard cap on CPU time as a share of the machine, and the memory its processes may commit
/// together. The process joins it right after it starts (Windows has no way to start inside a job
/// without suspending the process first); Windows reports no throttled periods, so only the peak
/// memory is read.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed class WindowsJobLimit : IResourceLimit
{
    private IntPtr _job;

    private WindowsJobLimit(IntPtr job, double? cpus, long? memoryBytes)
    {
        (_job, Cpus, MemoryBytes) = (job, cpus, memoryBytes);
        Description = ResourceLimits.Describe(cpus, memoryBytes);
    }

    public string Description { get; }

    public double? Cpus { get; }

    public long? MemoryBytes { get; }

    public static WindowsJobLimit Create(string name, double? cpus, long? memoryBytes)
    {
        // CpuRate is in 1/10,000ths of all the machine's processors.
        var rate = cpus is { } c ? (uint)Math.Clamp(c / MachineCpus.Count * 10_000, 1, 10_000) : 0;
        var job = WindowsJobObject.CreateLimited(rate, (ulong)(memoryBytes ?? 0), out var refused);
        return job == IntPtr.Zero
            ? throw new InvalidOperationException($"cannot make the Job Object '{name}' for the limits: Windows refused {refused}")
            : new WindowsJobLimit(job, cpus, memoryBytes);
    }

    public (string FileName, IReadOnlyList<string> Arguments) Wrap(string fileName, IReadOnlyList<string> arguments) => (fileName, arguments);

    public void Attach(Process process)
    {
        if (!WindowsJobObject.AssignTo(_job, process))
        {
            throw new InvalidOperationException($"cannot put process {process.Id} under the limits: Windows refused it");
        }
    }

    public ResourceLimitReading Read() =>
        ResourceLimitReading.None with { PeakMemoryBytes = WindowsJobObject.PeakMemory(_job), CountsMemory = MemoryBytes is not null };

    /// <summary>Closes the job (its processes end with it); once, however often it is called.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _job, IntPtr.Zero) is var job && job != IntPtr.Zero)
        {
            WindowsJobObject.Close(job);
        }
    }
}

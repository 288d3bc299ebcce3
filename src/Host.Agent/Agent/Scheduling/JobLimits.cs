using System.Globalization;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// crank's <c>cpuLimitRatio</c> and <c>memoryLimitInBytes</c> as the limit a job's process runs
/// under: the ratio is a share of the whole machine (0.5 on 8 CPUs: 4 CPUs' worth of time), the
/// memory a byte count; a value that cannot work, or a machine that cannot set limits, fails the
/// job at once with the reason.
/// </summary>
internal static class JobLimits
{
    /// <summary>The job's limit, or null when it asks for none.</summary>
    /// <exception cref="JobFailedException">A value out of range, or a machine that cannot set limits.</exception>
    public static IResourceLimit? Create(int jobId, JobSpec spec)
    {
        Check(spec);
        double? cpus = spec.CpuLimitRatio > 0 ? Math.Max(0.01, spec.CpuLimitRatio * Environment.ProcessorCount) : null;
        long? memory = spec.MemoryLimitInBytes > 0 ? spec.MemoryLimitInBytes : null;
        if (cpus is null && memory is null)
        {
            return null;
        }

        try
        {
            return ResourceLimits.Create("job" + jobId.ToString(CultureInfo.InvariantCulture), cpus, memory);
        }
        catch (InvalidOperationException ex)
        {
            throw new JobFailedException(ex.Message);
        }
    }

    /// <summary>Says no to values that cannot work, before anything is built or started.</summary>
    /// <exception cref="JobFailedException">A ratio outside 0–1, or a memory limit below 16 MB.</exception>
    public static void Check(JobSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var c = CultureInfo.InvariantCulture;
        if (spec.MalformedLimit is { } malformed)
        {
            throw new JobFailedException($"{malformed} is not a number: the job would run without the limit it asked for");
        }

        if (spec.CpuLimitRatio is < 0 or > 1)
        {
            throw new JobFailedException(string.Create(c,
                $"cpuLimitRatio {spec.CpuLimitRatio} is not a share of the machine between 0 and 1 (0.5: half of its {Environment.ProcessorCount} CPUs)"));
        }

        if (spec.MemoryLimitInBytes < 0 || spec.MemoryLimitInBytes is > 0 and < ResourceLimits.LeastMemoryBytes)
        {
            throw new JobFailedException(string.Create(c,
                $"memoryLimitInBytes {spec.MemoryLimitInBytes} is below the least this agent takes ({ResourceLimits.LeastMemoryBytes} bytes, 16 MB)"));
        }
    }
}

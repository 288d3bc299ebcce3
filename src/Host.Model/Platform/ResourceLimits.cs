using System.Globalization;

namespace Benchmarks.Host.Platform;

/// <summary>Makes the resource limit of this operating system, or says in one line why it cannot.</summary>
internal static class ResourceLimits
{
    /// <summary>The least memory limit taken, by <c>run</c> and by the agent alike: a .NET process does not start in less.</summary>
    public const long LeastMemoryBytes = 16L * 1024 * 1024;

    /// <param name="name">A name of the limit's own (a cgroup's or a Job Object's), unique among those alive.</param>
    /// <param name="cpus">CPUs' worth of time per period (1.5: one and a half CPUs); null for no CPU quota.</param>
    /// <param name="memoryBytes">The memory the processes may use together; null for no limit.</param>
    /// <exception cref="InvalidOperationException">The machine does not let this tool set limits, with what it needs.</exception>
    public static IResourceLimit Create(string name, double? cpus, long? memoryBytes)
    {
        if (cpus is <= 0 || memoryBytes is <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(cpus), "A CPU quota and a memory limit must be above zero.");
        }

        if (OperatingSystem.IsLinux())
        {
            return LinuxCgroupLimit.Create(name, cpus, memoryBytes);
        }

        if (OperatingSystem.IsWindows())
        {
            return WindowsJobLimit.Create(name, cpus, memoryBytes);
        }

        throw new InvalidOperationException("CPU and memory limits need Linux (cgroups) or Windows (Job Objects).");
    }

    /// <summary>"1.5 CPUs, 512 MB".</summary>
    public static string Describe(double? cpus, long? memoryBytes) => string.Join(", ", new[]
    {
        cpus is { } c ? string.Create(CultureInfo.InvariantCulture, $"{c:0.##} CPU{(c == 1 ? "" : "s")}") : null,
        memoryBytes is { } m ? string.Create(CultureInfo.InvariantCulture, $"{m / (1024.0 * 1024):0.#} MB") : null,
    }.Where(p => p is not null));
}

using System.Diagnostics;

namespace Benchmarks.Host.Platform;

/// <summary>
/// A CPU quota and a memory limit for one process and its children, as a container would set them:
/// a cgroup of this tool's own on Linux (<see cref="LinuxCgroupLimit"/>), a Job Object on Windows
/// (<see cref="WindowsJobLimit"/>). Made by <see cref="ResourceLimits.Create"/>; removed on dispose.
/// </summary>
internal interface IResourceLimit : IDisposable
{
    /// <summary>What it limits, as "1.5 CPUs, 512 MB".</summary>
    string Description { get; }

    /// <summary>CPUs' worth of time per period; null: no CPU quota.</summary>
    double? Cpus { get; }

    /// <summary>The memory its processes may use together; null: no memory limit.</summary>
    long? MemoryBytes { get; }

    /// <summary>
    /// The command that runs <paramref name="fileName"/> inside the limit from its first instruction
    /// (so that a runtime reading its cgroup at start-up sees the quota); on Windows the command itself.
    /// </summary>
    (string FileName, IReadOnlyList<string> Arguments) Wrap(string fileName, IReadOnlyList<string> arguments);

    /// <summary>After the start: puts the process under the limit where that is done from outside (Windows).</summary>
    void Attach(Process process);

    /// <summary>The limit's counts so far.</summary>
    ResourceLimitReading Read();
}

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The operating system's CPU, memory and network counters. One implementation per OS
/// (<see cref="LinuxSystemMetrics"/>, <see cref="WindowsSystemMetrics"/>), chosen once.
/// </summary>
internal interface ISystemMetrics
{
    MachineCpuTimes ReadMachineCpu();

    /// <summary>
    /// Idle time (seconds, waiting for I/O included) summed over the given CPUs, by index; null
    /// when the OS does not say or a CPU is not there.
    /// </summary>
    double? ReadIdle(IReadOnlyList<int> cpus);

    /// <summary>Null when the process has exited.</summary>
    ProcessCpuTimes? ReadProcess(int processId);

    /// <summary>
    /// A process and its children together (a multi-process server such as PostgreSQL); null when the
    /// process has exited. With <paramref name="privateMemory"/>, their private working set too
    /// (<see cref="ProcessCpuTimes.PrivateBytes"/>, null where the OS does not say), which costs the
    /// kernel a walk of their page tables.
    /// </summary>
    ProcessCpuTimes? ReadProcessTree(int processId, bool privateMemory = false);

    /// <summary>Null when the interface's counters cannot be read.</summary>
    NetworkCounters? ReadNetwork(string interfaceName);

    /// <summary>What the link carries at most and where that figure came from, or null when unknown (loopback, virtual links).</summary>
    LinkCapacity? ReadLinkCapacity(string interfaceName);

    /// <summary>The processor's model name (e.g. "AMD EPYC 7763 64-Core Processor"), or null when the OS does not say.</summary>
    string? ReadProcessorModel();
}

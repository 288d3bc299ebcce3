using System.Diagnostics;

namespace Benchmarks.Host.Platform;

/// <summary>What differs between operating systems when managing a child process.</summary>
internal interface IProcessControl
{
    /// <summary>Asks the process to stop cleanly (SIGTERM on Linux). False when the OS has no such request for it.</summary>
    bool RequestStop(Process process);

    /// <summary>Interrupts the process (SIGINT on Linux), the second, firmer stop request. False when the OS has none.</summary>
    bool Interrupt(Process process);

    /// <summary>The process's children, their children and so on, as they are now.</summary>
    IReadOnlyList<int> Descendants(Process process);

    /// <summary>The parent of a process (any process, not only a child of this one); null when it is gone or unknown.</summary>
    int? ParentOf(int processId);

    /// <summary>Pins the process to the given CPUs.</summary>
    void SetAffinity(Process process, IReadOnlyList<int> cpus);

    /// <summary>
    /// Ties a child's life to this process's, however this process ends: a Job Object with
    /// kill-on-close on Windows; on Linux the child's own parent watch (see <c>ShutdownSignal</c>) does it.
    /// </summary>
    void Adopt(Process process);

    /// <summary>True when the process is gone or has ended, a zombie nobody has reaped included (a killed parent that still holds its pid).</summary>
    bool HasEnded(int processId);
}

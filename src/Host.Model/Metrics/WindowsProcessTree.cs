using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Windows: the CPU of a process and of its live descendants, found through a Toolhelp snapshot.
/// Descendants that ended are not counted (Windows keeps no reaped total), so a short-lived child's
/// time is missing; PostgreSQL's backends live as long as their pooled connections. Asked for, the
/// tree's private working set too (<see cref="WindowsProcessMemory"/>).
/// </summary>
[SupportedOSPlatform("windows")]
internal static class WindowsProcessTree
{
    public static ProcessCpuTimes? Read(int processId, bool privateMemory = false)
    {
        var root = ReadOne(processId);
        if (root is null)
        {
            return null;
        }

        var (user, kernel, memory) = (root.Value.User, root.Value.Kernel, root.Value.WorkingSetBytes);
        var privateBytes = privateMemory ? WindowsProcessMemory.PrivateWorkingSet(processId) : null;
        foreach (var child in WindowsToolhelp.Descendants(processId))
        {
            if (ReadOne(child) is { } times)
            {
                user += times.User;
                kernel += times.Kernel;
                memory += times.WorkingSetBytes;
                if (privateBytes is not null)
                {
                    privateBytes += WindowsProcessMemory.PrivateWorkingSet(child) ?? 0;
                }
            }
        }

        return new ProcessCpuTimes(user, kernel, memory, privateBytes);
    }

    private static ProcessCpuTimes? ReadOne(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return new ProcessCpuTimes(process.UserProcessorTime.TotalSeconds, process.PrivilegedProcessorTime.TotalSeconds, process.WorkingSet64);
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}

using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Windows: the CPU of a process and of its live descendants, found through a Toolhelp snapshot.
/// Descendants that ended are not counted (Windows keeps no reaped total), so a short-lived child's
/// time is missing; PostgreSQL's backends live as long as their pooled connections.
/// </summary>
[SupportedOSPlatform("windows")]
internal static class WindowsProcessTree
{
    public static ProcessCpuTimes? Read(int processId)
    {
        var root = ReadOne(processId);
        if (root is null)
        {
            return null;
        }

        var (user, kernel, memory) = (root.Value.User, root.Value.Kernel, root.Value.WorkingSetBytes);
        foreach (var child in WindowsToolhelp.Descendants(processId))
        {
            if (ReadOne(child) is { } times)
            {
                user += times.User;
                kernel += times.Kernel;
                memory += times.WorkingSetBytes;
            }
        }

        return new ProcessCpuTimes(user, kernel, memory);
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

using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Windows: the CPU of a process and of its live children, found through a Toolhelp snapshot.
/// Children that ended are not counted (Windows keeps no reaped total), so a short-lived child's
/// time is missing; PostgreSQL's backends live as long as their pooled connections.
/// </summary>
[SupportedOSPlatform("windows")]
internal static partial class WindowsProcessTree
{
    private const uint SnapProcess = 0x2;

    public static ProcessCpuTimes? Read(int processId)
    {
        var root = ReadOne(processId);
        if (root is null)
        {
            return null;
        }

        var (user, kernel, memory) = (root.Value.User, root.Value.Kernel, root.Value.WorkingSetBytes);
        foreach (var child in Children(processId))
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

    private static unsafe List<int> Children(int processId)
    {
        var children = new List<int>();
        var snapshot = CreateToolhelp32Snapshot(SnapProcess, 0);
        if (snapshot == -1)
        {
            return children;
        }

        try
        {
            var entry = new ProcessEntry { Size = (uint)sizeof(ProcessEntry) };
            for (var more = Process32FirstW(snapshot, ref entry); more; more = Process32NextW(snapshot, ref entry))
            {
                if (entry.ParentProcessId == (uint)processId && entry.ProcessId != (uint)processId)
                {
                    children.Add((int)entry.ProcessId);
                }
            }
        }
        finally
        {
            CloseHandle(snapshot);
        }

        return children;
    }

    [StructLayout(LayoutKind.Sequential)]
    private unsafe struct ProcessEntry
    {
        public uint Size;
        public uint Usage;
        public uint ProcessId;
        public nuint DefaultHeapId;
        public uint ModuleId;
        public uint Threads;
        public uint ParentProcessId;
        public int PriorityBase;
        public uint Flags;
        public fixed char ExeFile[260];
    }

    [LibraryImport("kernel32.dll", SetLastError = true)]
    private static partial nint CreateToolhelp32Snapshot(uint flags, uint processId);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool Process32FirstW(nint snapshot, ref ProcessEntry entry);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool Process32NextW(nint snapshot, ref ProcessEntry entry);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool CloseHandle(nint handle);
}

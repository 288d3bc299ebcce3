using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

/// <summary>Windows: every process's parent, from a Toolhelp snapshot (the OS keeps no child list).</summary>
[SupportedOSPlatform("windows")]
internal static partial class WindowsToolhelp
{
    private const uint SnapProcess = 0x2;

    /// <summary>Process id to parent process id, for every process now.</summary>
    public static unsafe Dictionary<int, int> Parents()
    {
        var parents = new Dictionary<int, int>();
        var snapshot = CreateToolhelp32Snapshot(SnapProcess, 0);
        if (snapshot == -1)
        {
            return parents;
        }

        try
        {
            var entry = new ProcessEntry { Size = (uint)sizeof(ProcessEntry) };
            for (var more = Process32FirstW(snapshot, ref entry); more; more = Process32NextW(snapshot, ref entry))
            {
                if (entry.ProcessId != entry.ParentProcessId)
                {
                    parents[(int)entry.ProcessId] = (int)entry.ParentProcessId;
                }
            }
        }
        finally
        {
            CloseHandle(snapshot);
        }

        return parents;
    }

    /// <summary>The descendants of <paramref name="processId"/>, children first.</summary>
    public static List<int> Descendants(int processId)
    {
        var children = Parents().GroupBy(p => p.Value).ToDictionary(g => g.Key, g => g.Select(p => p.Key).ToList());
        var found = new List<int>();
        var pending = new Queue<int>([processId]);
        while (pending.TryDequeue(out var next))
        {
            foreach (var child in children.GetValueOrDefault(next) ?? [])
            {
                found.Add(child);
                pending.Enqueue(child);
            }
        }

        return found;
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

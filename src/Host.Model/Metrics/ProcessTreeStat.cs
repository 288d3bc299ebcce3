using System.Globalization;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Linux: the CPU of a process and of its descendants — the live ones read from their own
/// <c>/proc/&lt;pid&gt;/stat</c>, the ended ones from their parents' cutime and cstime (what each
/// reaped). A multi-process server such as PostgreSQL (a postmaster and a backend per
/// connection) is measured whole this way. Asked for, the tree's private working set too, from
/// each process's <c>smaps_rollup</c> (<see cref="SmapsRollupParser"/>; the kernel walks the
/// process's page tables for it, so only the measured server's is read).
/// </summary>
internal static class ProcessTreeStat
{
    public static ProcessCpuTimes? Read(int processId, double ticksPerSecond, long pageSize, bool privateMemory = false)
    {
        string root;
        try
        {
            root = File.ReadAllText(Path.Combine("/proc", processId.ToString(CultureInfo.InvariantCulture), "stat"));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        var self = ProcPidStatParser.Parse(root, ticksPerSecond, pageSize);
        double user = self.User + (Field(root, 16) / ticksPerSecond);
        double kernel = self.Kernel + (Field(root, 17) / ticksPerSecond);
        var memory = self.WorkingSetBytes;
        var privateBytes = privateMemory ? Private(processId) : null;
        var children = new Dictionary<int, List<(int Pid, string Stat)>>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) || pid == processId)
            {
                continue;
            }

            try
            {
                var text = File.ReadAllText(Path.Combine(directory, "stat"));
                var parent = (int)Field(text, 4);
                if (!children.TryGetValue(parent, out var list))
                {
                    children[parent] = list = [];
                }

                list.Add((pid, text));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException)
            {
                // The process ended between the listing and the read: its parent reaps it into cutime.
            }
        }

        // Every descendant (a server started through runuser is a grandchild): live ones by their own
        // times, with what each reaped of its own ended children.
        var pending = new Stack<int>([processId]);
        while (pending.Count > 0)
        {
            if (!children.TryGetValue(pending.Pop(), out var list))
            {
                continue;
            }

            foreach (var (pid, text) in list)
            {
                var child = ProcPidStatParser.Parse(text, ticksPerSecond, pageSize);
                user += child.User + (Field(text, 16) / ticksPerSecond);
                kernel += child.Kernel + (Field(text, 17) / ticksPerSecond);
                memory += child.WorkingSetBytes;
                if (privateBytes is not null)
                {
                    privateBytes += Private(pid) ?? 0;
                }

                pending.Push(pid);
            }
        }

        return new ProcessCpuTimes(user, kernel, memory, privateBytes);
    }

    /// <summary>
    /// One process's private working set; null when it ended or its memory map cannot be read
    /// (another user's process, a kernel before 4.14).
    /// </summary>
    private static long? Private(int processId)
    {
        try
        {
            return SmapsRollupParser.PrivateBytes(File.ReadAllText(Path.Combine("/proc", processId.ToString(CultureInfo.InvariantCulture), "smaps_rollup")));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Field <paramref name="number"/> (1-based, as proc(5) numbers them; 3 or more) of a stat line.</summary>
    private static long Field(string stat, int number)
    {
        var fields = stat.AsSpan(stat.LastIndexOf(')') + 1).Trim();
        var index = 3;
        foreach (var range in fields.Split(' '))
        {
            if (index++ == number)
            {
                return long.Parse(fields[range], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            }
        }

        throw new FormatException($"/proc/<pid>/stat has no field {number}.");
    }
}

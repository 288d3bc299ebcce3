using System.Diagnostics;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

[SupportedOSPlatform("linux")]
internal sealed class LinuxProcessControl : IProcessControl
{
    public bool RequestStop(Process process) => LinuxNative.Kill(process.Id, LinuxNative.SigTerm) == 0;

    public bool Interrupt(Process process) => LinuxNative.Kill(process.Id, LinuxNative.SigInt) == 0;

    public IReadOnlyList<int> Descendants(Process process)
    {
        ArgumentNullException.ThrowIfNull(process);
        var parents = new Dictionary<int, List<int>>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), out var pid))
            {
                continue;
            }

            try
            {
                // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may contain spaces and parentheses.
                var stat = File.ReadAllText(Path.Combine(directory, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                if (fields.Length > 1 && int.TryParse(fields[1], out var parent))
                {
                    if (!parents.TryGetValue(parent, out var children))
                    {
                        parents[parent] = children = [];
                    }

                    children.Add(pid);
                }
            }
            catch (IOException)
            {
            }
        }

        var found = new List<int>();
        var pending = new Queue<int>([process.Id]);
        while (pending.TryDequeue(out var next))
        {
            foreach (var child in parents.GetValueOrDefault(next) ?? [])
            {
                found.Add(child);
                pending.Enqueue(child);
            }
        }

        return found;
    }

    /// <summary>Field 4 of <c>/proc/PID/stat</c>.</summary>
    public int? ParentOf(int processId)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{processId.ToString(System.Globalization.CultureInfo.InvariantCulture)}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return fields.Length > 1
                && int.TryParse(fields[1], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var parent)
                    ? parent
                    : null;
        }
        catch (IOException)
        {
            return null;
        }
    }

    public void SetAffinity(Process process, IReadOnlyList<int> cpus) => process.ProcessorAffinity = CpuSet.ToMask(cpus);

    // PR_SET_PDEATHSIG would have to be set between fork and exec, which Process.Start does not
    // offer; this tool's own children watch their parent instead (ShutdownSignal), and a stopped
    // run kills the whole tree it started (Descendants).
    public void Adopt(Process process)
    {
    }

    /// <summary>From <c>/proc/PID/stat</c>: missing, or in state Z (zombie) or X (dead).</summary>
    public bool HasEnded(int processId)
    {
        string stat;
        try
        {
            stat = File.ReadAllText($"/proc/{processId.ToString(System.Globalization.CultureInfo.InvariantCulture)}/stat");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return true;
        }

        // pid (comm) STATE …: the name may hold spaces and parentheses, the state follows the last ')'.
        var close = stat.LastIndexOf(')');
        var state = close >= 0 && close + 2 < stat.Length ? stat[close + 2] : 'X';
        return state is 'Z' or 'X' or 'x';
    }
}

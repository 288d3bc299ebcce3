using System.Diagnostics;
using System.Globalization;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

/// <summary>
/// A cgroup of this tool's own, beside the tool's (under the cgroup it runs in), with a CPU quota
/// (cgroup v2 <c>cpu.max</c>; v1 <c>cpu.cfs_quota_us</c> over a 100 ms period) and a memory limit
/// without swap (v2 <c>memory.max</c>, <c>memory.swap.max</c> 0; v1 <c>memory.limit_in_bytes</c>
/// and <c>memory.memsw.limit_in_bytes</c>). Cgroup v2 is used where its <c>cpu</c> and
/// <c>memory</c> controllers are mounted, else v1's hierarchies. The process joins it from its
/// first instruction: a shell writes its own pid into <c>cgroup.procs</c> and then becomes the
/// process (<c>exec</c>), so no <c>cgexec</c> or <c>cgset</c> is needed — but writing there needs
/// root or a delegated subtree. A group is named <c>benchmarks-PID-NAME</c> after the tool that
/// made it; one whose tool is gone (a crashed run) and that is empty is removed when the next is made.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class LinuxCgroupLimit : IResourceLimit
{
    private const long PeriodMicroseconds = 100_000;

    /// <summary>The group's folders: one on v2; on v1 the cpu one and the memory one (either may be absent).</summary>
    private readonly string? _cpu;
    private readonly string? _memory;
    private readonly bool _v2;

    private LinuxCgroupLimit(string? cpu, string? memory, bool v2, double? cpus, long? memoryBytes)
    {
        (_cpu, _memory, _v2, Cpus, MemoryBytes) = (cpu, memory, v2, cpus, memoryBytes);
        Description = ResourceLimits.Describe(cpus, memoryBytes);
    }

    public string Description { get; }

    public double? Cpus { get; }

    public long? MemoryBytes { get; }

    public static LinuxCgroupLimit Create(string name, double? cpus, long? memoryBytes)
    {
        var group = $"benchmarks-{Environment.ProcessId.ToString(CultureInfo.InvariantCulture)}-{name}";
        var mounts = CgroupMounts.Read();
        try
        {
            if (mounts.Unified is { } unified && Controllers(unified).IsSupersetOf(["cpu", "memory"]))
            {
                var folder = Make(Path.Combine(unified, mounts.OwnPath(null).TrimStart('/')), group);
                Write(folder, "cpu.max", cpus is { } c ? Invariant($"{(long)(c * PeriodMicroseconds)} {PeriodMicroseconds}") : null);
                Write(folder, "memory.max", memoryBytes?.ToString(CultureInfo.InvariantCulture));
                Write(folder, "memory.swap.max", memoryBytes is null ? null : "0");
                return new LinuxCgroupLimit(folder, folder, v2: true, cpus, memoryBytes);
            }

            string? cpu = null, memory = null;
            if (cpus is { } quota)
            {
                cpu = Make(Path.Combine(mounts.Mount("cpu"), mounts.OwnPath("cpu").TrimStart('/')), group);
                Write(cpu, "cpu.cfs_period_us", PeriodMicroseconds.ToString(CultureInfo.InvariantCulture));
                Write(cpu, "cpu.cfs_quota_us", ((long)(quota * PeriodMicroseconds)).ToString(CultureInfo.InvariantCulture));
            }

            if (memoryBytes is { } bytes)
            {
                memory = Make(Path.Combine(mounts.Mount("memory"), mounts.OwnPath("memory").TrimStart('/')), group);
                Write(memory, "memory.limit_in_bytes", bytes.ToString(CultureInfo.InvariantCulture));
                if (File.Exists(Path.Combine(memory, "memory.memsw.limit_in_bytes")))
                {
                    Write(memory, "memory.memsw.limit_in_bytes", bytes.ToString(CultureInfo.InvariantCulture));
                }
            }

            return new LinuxCgroupLimit(cpu, memory, v2: false, cpus, memoryBytes);
        }
        catch (Exception ex) when (ex is UnauthorizedAccessException or IOException)
        {
            throw new InvalidOperationException(
                $"cannot make cgroup '{group}' for the limits: {ex.Message} " +
                "(the tool needs root, or a cgroup subtree delegated to its user, with the cpu and memory controllers)",
                ex);
        }
    }

    public (string FileName, IReadOnlyList<string> Arguments) Wrap(string fileName, IReadOnlyList<string> arguments)
    {
        var joins = new[] { _cpu, _v2 ? null : _memory }.Where(f => f is not null).Select(f => $"echo $$ > '{Path.Combine(f!, "cgroup.procs")}'");
        return ("/bin/sh", ["-c", string.Join(" && ", joins) + " && exec \"$0\" \"$@\"", fileName, .. arguments]);
    }

    public void Attach(Process process)
    {
    }

    public ResourceLimitReading Read()
    {
        var cpu = _cpu is null ? [] : Fields(Path.Combine(_cpu, "cpu.stat"));
        var memoryEvents = _memory is null ? [] : Fields(Path.Combine(_memory, _v2 ? "memory.events" : "memory.oom_control"));
        var peak = _memory is null ? 0 : Number(Path.Combine(_memory, _v2 ? "memory.peak" : "memory.max_usage_in_bytes"));
        var throttled = _v2
            ? TimeSpan.FromMicroseconds(cpu.GetValueOrDefault("throttled_usec"))
            : TimeSpan.FromTicks(cpu.GetValueOrDefault("throttled_time") / 100);
        return new ResourceLimitReading(cpu.GetValueOrDefault("nr_periods"), cpu.GetValueOrDefault("nr_throttled"), throttled,
            memoryEvents.GetValueOrDefault("oom_kill"), peak)
        {
            CountsPeriods = Cpus is not null,
            CountsMemory = MemoryBytes is not null,
        };
    }

    /// <summary>Removes the group; a process still in it (one that outlived its parent) is killed first.</summary>
    public void Dispose()
    {
        foreach (var folder in new[] { _cpu, _memory }.Where(f => f is not null).Distinct())
        {
            Remove(folder!);
        }
    }

    /// <summary>Empties and removes a group, trying for a second while its last process is being reaped.</summary>
    private static void Remove(string folder)
    {
        for (var attempt = 0; attempt < 20 && Directory.Exists(folder); attempt++)
        {
            try
            {
                foreach (var line in File.ReadAllLines(Path.Combine(folder, "cgroup.procs")))
                {
                    if (int.TryParse(line, CultureInfo.InvariantCulture, out var pid))
                    {
                        _ = LinuxNative.Kill(pid, 9);
                    }
                }

                Directory.Delete(folder);
                return;
            }
            catch (IOException)
            {
                Thread.Sleep(50);
            }
        }
    }

    private static string Make(string parent, string group)
    {
        // Groups a crashed run left behind, now empty, go first: never one of a tool still running.
        foreach (var stale in Directory.Exists(parent) ? Directory.GetDirectories(parent, "benchmarks-*-*") : [])
        {
            try
            {
                var owner = Path.GetFileName(stale).Split('-')[1];
                if (int.TryParse(owner, CultureInfo.InvariantCulture, out var pid) && !Directory.Exists($"/proc/{owner}")
                    && pid != Environment.ProcessId && File.ReadAllText(Path.Combine(stale, "cgroup.procs")).Trim().Length == 0)
                {
                    Directory.Delete(stale);
                }
            }
            catch (IOException)
            {
            }
        }

        var folder = Path.Combine(parent, group);
        Directory.CreateDirectory(folder);
        return folder;
    }

    private static void Write(string folder, string file, string? value)
    {
        if (value is not null)
        {
            File.WriteAllText(Path.Combine(folder, file), value);
        }
    }

    private static HashSet<string> Controllers(string unified)
    {
        var file = Path.Combine(unified, "cgroup.controllers");
        return File.Exists(file) ? [.. File.ReadAllText(file).Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)] : [];
    }

    /// <summary>A flat keyed file ("nr_periods 12\nnr_throttled 3"), as numbers.</summary>
    private static Dictionary<string, long> Fields(string file)
    {
        var fields = new Dictionary<string, long>(StringComparer.Ordinal);
        if (!File.Exists(file))
        {
            return fields;
        }

        foreach (var line in File.ReadAllLines(file))
        {
            var parts = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length == 2 && long.TryParse(parts[1], CultureInfo.InvariantCulture, out var value))
            {
                fields[parts[0]] = value;
            }
        }

        return fields;
    }

    private static long Number(string file) =>
        File.Exists(file) && long.TryParse(File.ReadAllText(file).Trim(), CultureInfo.InvariantCulture, out var value) ? value : 0;

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}

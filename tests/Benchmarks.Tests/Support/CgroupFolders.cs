namespace Benchmarks.Tests.Support;

/// <summary>Where a process's cgroup is, read from /proc as a user would (cgroup v1's controller hierarchies, or v2's one).</summary>
internal static class CgroupFolders
{
    /// <summary>The folder of a process's cgroup in a v1 controller's hierarchy (or v2's).</summary>
    public static string Of(int pid, string controller)
    {
        var line = File.ReadAllLines($"/proc/{pid}/cgroup").First(l => l.Split(':')[1].Split(',').Contains(controller) || l.StartsWith("0::",
            StringComparison.Ordinal));
        var mount = File.ReadLines("/proc/self/mountinfo").Select(l => l.Split(' ')).First(f => f[^1].Split(',').Contains(controller)
            || f.Contains("cgroup2"))[4];
        return mount + line.Split(':', 3)[2];
    }

    /// <summary>The limit groups a tool with pid <paramref name="owner"/> has made under its own cgroup (for <paramref name="controller"/>).</summary>
    public static IReadOnlyList<string> MadeBy(int owner, string controller)
    {
        var parent = Of(owner, controller);
        return Directory.Exists(parent) ? Directory.GetDirectories(parent, $"benchmarks-{owner}-*") : [];
    }
}

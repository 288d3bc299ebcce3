using System.Runtime.Versioning;

namespace Benchmarks.Host.Platform;

/// <summary>
/// Where the cgroup hierarchies are mounted (<c>/proc/self/mountinfo</c>) and where this process
/// sits in each (<c>/proc/self/cgroup</c>): v1's per-controller mounts, and v2's unified one.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class CgroupMounts
{
    private readonly Dictionary<string, string> _v1Mounts;
    private readonly Dictionary<string, string> _v1Paths;
    private readonly string _unifiedPath;

    private CgroupMounts(Dictionary<string, string> v1Mounts, Dictionary<string, string> v1Paths, string? unified, string unifiedPath)
    {
        (_v1Mounts, _v1Paths, Unified, _unifiedPath) = (v1Mounts, v1Paths, unified, unifiedPath);
    }

    /// <summary>The cgroup2 mount point; null when none is mounted.</summary>
    public string? Unified { get; }

    public static CgroupMounts Read()
    {
        var mounts = new Dictionary<string, string>(StringComparer.Ordinal);
        string? unified = null;
        foreach (var line in File.ReadLines("/proc/self/mountinfo"))
        {
            // "id parent major:minor root mountpoint options [optional...] - fstype source superoptions"
            var separator = line.IndexOf(" - ", StringComparison.Ordinal);
            if (separator < 0)
            {
                continue;
            }

            var fields = line[..separator].Split(' ');
            var tail = line[(separator + 3)..].Split(' ');
            if (tail[0] == "cgroup2")
            {
                unified ??= fields[4];
            }
            else if (tail[0] == "cgroup" && tail.Length > 2)
            {
                foreach (var controller in tail[2].Split(','))
                {
                    mounts.TryAdd(controller, fields[4]);
                }
            }
        }

        var paths = new Dictionary<string, string>(StringComparer.Ordinal);
        var unifiedPath = "/";
        foreach (var line in File.ReadLines("/proc/self/cgroup"))
        {
            // "id:controllers:path"; v2's line is "0::path".
            var parts = line.Split(':', 3);
            if (parts.Length < 3)
            {
                continue;
            }

            if (parts[1].Length == 0)
            {
                unifiedPath = parts[2];
            }

            foreach (var controller in parts[1].Split(',', StringSplitOptions.RemoveEmptyEntries))
            {
                paths.TryAdd(controller, parts[2]);
            }
        }

        return new CgroupMounts(mounts, paths, unified, unifiedPath);
    }

    /// <summary>The v1 mount of a controller.</summary>
    /// <exception cref="IOException">It is not mounted.</exception>
    public string Mount(string controller) =>
        _v1Mounts.TryGetValue(controller, out var mount) ? mount : throw new IOException($"no cgroup hierarchy has the {controller} controller mounted");

    /// <summary>This process's cgroup in a v1 controller's hierarchy, or (null) in v2's.</summary>
    public string OwnPath(string? controller) => controller is null ? _unifiedPath : _v1Paths.GetValueOrDefault(controller, "/");
}

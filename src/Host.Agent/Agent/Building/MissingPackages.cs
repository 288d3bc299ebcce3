using System.Text.Json;

namespace Benchmarks.Host.Agent.Building;

/// <summary>
/// After a restore that failed: the packages a job's projects ask for that this machine's NuGet
/// cache does not hold, and the feeds the restore tried, read from the restore's own graph spec
/// (<c>obj/*.nuget.dgspec.json</c>, written before any feed is asked). Only the projects' direct
/// references are checked: a missing dependency of theirs is in the build's own error lines.
/// </summary>
internal static class MissingPackages
{
    /// <summary>One line naming what is missing and where it was looked for; null when nothing can be named.</summary>
    public static string? Describe(string projectDirectory)
    {
        var spec = Directory.Exists(Path.Combine(projectDirectory, "obj"))
            ? Directory.EnumerateFiles(Path.Combine(projectDirectory, "obj"), "*.nuget.dgspec.json").FirstOrDefault()
            : null;
        if (spec is null)
        {
            return null;
        }

        var missing = new SortedSet<string>(StringComparer.OrdinalIgnoreCase);
        var sources = new SortedSet<string>(StringComparer.OrdinalIgnoreCase);
        string? cache = null;
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(spec));
            foreach (var project in document.RootElement.GetProperty("projects").EnumerateObject())
            {
                if (!project.Value.TryGetProperty("restore", out var restore))
                {
                    continue;
                }

                cache ??= restore.TryGetProperty("packagesPath", out var path) ? path.GetString() : null;
                if (restore.TryGetProperty("sources", out var named))
                {
                    sources.UnionWith(named.EnumerateObject().Select(f => f.Name));
                }

                if (cache is null || !project.Value.TryGetProperty("frameworks", out var frameworks))
                {
                    continue;
                }

                foreach (var framework in frameworks.EnumerateObject())
                {
                    if (!framework.Value.TryGetProperty("dependencies", out var dependencies))
                    {
                        continue;
                    }

                    foreach (var dependency in dependencies.EnumerateObject())
                    {
                        if (dependency.Value.TryGetProperty("version", out var range) && LowestVersion(range.GetString()) is { } version
                            && !Directory.Exists(Path.Combine(cache, dependency.Name.ToLowerInvariant(), version.ToLowerInvariant())))
                        {
                            missing.Add($"{dependency.Name} {version}");
                        }
                    }
                }
            }
        }
        catch (Exception ex) when (ex is JsonException or IOException or KeyNotFoundException or InvalidOperationException)
        {
            return null;
        }

        if (missing.Count == 0)
        {
            return null;
        }

        var feeds = sources.Count == 0 ? "no feed" : string.Join(", ", sources);
        return $"not in this machine's NuGet cache ({cache}) and not to be had from {feeds}: {string.Join(", ", missing)} (warm the cache or name a local " +
            $"feed in nuget.config: docs/agents.md)";
    }

    /// <summary>The version a range such as <c>[18.1.0, )</c> starts at; null for a range with no lower bound.</summary>
    private static string? LowestVersion(string? range)
    {
        var text = range?.Trim().TrimStart('[', '(').Split(',')[0].Trim().TrimEnd(']', ')');
        return string.IsNullOrEmpty(text) ? null : text;
    }
}

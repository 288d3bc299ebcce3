using System.Diagnostics;
using System.Text.Json.Nodes;

namespace Benchmarks.Host.Platform;

/// <summary>
/// What a published application is made of (crank's <c>collectDependencies</c>, stored as crank
/// stores it: <c>{Id, Names, RepositoryUrl, Version, CommitHash}</c>; and a run's own, by name): the .NET runtime and ASP.NET Core it
/// runs on (inside the folder when it is self-contained, else the installed shared framework its
/// <c>runtimeconfig.json</c> rolls forward to: the highest patch of the version it names), with the
/// commit each was built from, then every package its <c>*.deps.json</c> lists.
/// </summary>
internal static class PublishedDependencies
{
    /// <summary>
    /// This tool's own, as a run records them: the host's folder and each plugin's, by name, a
    /// framework's version with the commit it was built from (<c>10.0.12+95017c71a</c>).
    /// </summary>
    public static SortedDictionary<string, string> OfThisTool()
    {
        var folder = AppContext.BaseDirectory;
        var plugins = Path.Combine(folder, "plugins");
        var versions = new SortedDictionary<string, string>(StringComparer.Ordinal);
        foreach (var each in new[] { folder }.Concat(Directory.Exists(plugins) ? Directory.GetDirectories(plugins).Order(StringComparer.Ordinal) : []))
        {
            foreach (var dependency in Collect(each).OfType<JsonObject>())
            {
                var commit = (string?)dependency["CommitHash"] ?? "";
                versions[(string)dependency["Id"]!] = (string)dependency["Version"]! + (commit.Length > 0 ? "+" + commit[..Math.Min(9, commit.Length)] : "");
            }
        }

        return versions;
    }

    private static readonly (string Framework, string Assembly, string Repository)[] s_frameworks =
    [
        ("Microsoft.NETCore.App", "System.Private.CoreLib.dll", "https://github.com/dotnet/runtime"),
        ("Microsoft.AspNetCore.App", "Microsoft.AspNetCore.dll", "https://github.com/dotnet/aspnetcore"),
    ];

    public static JsonArray Collect(string publishedFolder)
    {
        ArgumentNullException.ThrowIfNull(publishedFolder);
        var dependencies = new JsonArray();
        var asked = Frameworks(publishedFolder);
        foreach (var (framework, assembly, repository) in s_frameworks)
        {
            // Self-contained: the framework's assemblies are in the folder. Otherwise the installed one it runs on.
            var file = Path.Combine(publishedFolder, assembly);
            if (!File.Exists(file) && asked.TryGetValue(framework, out var version) && SharedFolder(framework, version) is { } shared)
            {
                file = Path.Combine(shared, assembly);
            }

            if (File.Exists(file) && FileVersionInfo.GetVersionInfo(file).ProductVersion is { Length: > 0 } product)
            {
                // "10.0.12-servicing.26422.108+95017c71…": the version (a release's servicing build tag left out), then the commit it was built from.
                var plus = product.IndexOf('+', StringComparison.Ordinal);
                var built = plus < 0 ? product : product[..plus];
                var servicing = built.IndexOf("-servicing.", StringComparison.Ordinal);
                dependencies.Add(Dependency(framework, servicing < 0 ? built : built[..servicing], repository, plus < 0 ? "" : product[(plus + 1)..]));
            }
        }

        foreach (var deps in Directory.GetFiles(publishedFolder, "*.deps.json").Order(StringComparer.Ordinal))
        {
            if (JsonNode.Parse(File.ReadAllText(deps))?["libraries"] is JsonObject libraries)
            {
                foreach (var (key, library) in libraries)
                {
                    var slash = key.LastIndexOf('/');
                    if (slash > 0 && (string?)library?["type"] == "package")
                    {
                        dependencies.Add(Dependency(key[..slash], key[(slash + 1)..], "", ""));
                    }
                }
            }
        }

        return dependencies;
    }

    private static JsonObject Dependency(string name, string version, string repository, string commit) => new()
    {
        ["Id"] = name,
        ["Names"] = new JsonArray(name),
        ["RepositoryUrl"] = repository,
        ["Version"] = version,
        ["CommitHash"] = commit,
    };

    /// <summary>The shared frameworks the application's runtimeconfig.json names, with their versions.</summary>
    private static Dictionary<string, string> Frameworks(string folder)
    {
        var frameworks = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var config in Directory.GetFiles(folder, "*.runtimeconfig.json"))
        {
            var options = JsonNode.Parse(File.ReadAllText(config))?["runtimeOptions"];
            var named = options?["frameworks"] is JsonArray list ? list : options?["framework"] is JsonObject one ? new JsonArray(one.DeepClone()) : [];
            foreach (var framework in named.OfType<JsonObject>())
            {
                if ((string?)framework["name"] is { } name && (string?)framework["version"] is { } version)
                {
                    frameworks[name] = version;
                }
            }
        }

        return frameworks;
    }

    /// <summary>The installed folder of a shared framework: the version named, else the highest patch of its major.minor.</summary>
    private static string? SharedFolder(string framework, string version)
    {
        var minor = string.Join('.', version.Split('.').Take(2)) + ".";
        foreach (var root in Roots())
        {
            var parent = Path.Combine(root, "shared", framework);
            if (!Directory.Exists(parent))
            {
                continue;
            }

            var candidates = Directory.GetDirectories(parent).Select(Path.GetFileName).OfType<string>()
                .Where(v => v == version || v.StartsWith(minor, StringComparison.Ordinal))
                .OrderByDescending(v => Version.TryParse(v.Split('-')[0], out var parsed) ? parsed : new Version(0, 0))
                .ToList();
            if (candidates.Count > 0)
            {
                return Path.Combine(parent, candidates[0]);
            }
        }

        return null;
    }

    /// <summary>Where .NET is installed: DOTNET_ROOT, the dotnet on PATH (its link resolved), and the runtime this agent runs on.</summary>
    private static IEnumerable<string> Roots()
    {
        if (Environment.GetEnvironmentVariable("DOTNET_ROOT") is { Length: > 0 } root)
        {
            yield return root;
        }

        var name = OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";
        foreach (var folder in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            var file = new FileInfo(Path.Combine(folder, name));
            if (file.Exists)
            {
                var target = file.ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? file.FullName;
                yield return Path.GetDirectoryName(target)!;
            }
        }

        // …/shared/Microsoft.NETCore.App/10.0.12/: three folders up.
        var runtime = System.Runtime.InteropServices.RuntimeEnvironment.GetRuntimeDirectory().TrimEnd(Path.DirectorySeparatorChar);
        if (Path.GetDirectoryName(Path.GetDirectoryName(Path.GetDirectoryName(runtime))) is { } installed)
        {
            yield return installed;
        }
    }
}

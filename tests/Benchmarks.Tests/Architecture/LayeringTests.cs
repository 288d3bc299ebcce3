using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// The Host's folders form a one-way stack: a folder may use the folders below it, never one
/// above. Adding a folder means placing it here.
/// </summary>
public sealed partial class LayeringTests
{
    /// <summary>Bottom to top.</summary>
    private static readonly string[] Layers =
    [
        // Foundations: the OS, the stored document, the measurement catalog, counters, console, plugins.
        "Platform", "Documents", "Measurements", "Metrics", "Cli", "Plugins",

        // Execution: crank's statistics blocks, child processes, databases and proxies started for a run, response checks, load engines.
        "Crank", "Jobs", "Databases", "Proxies", "Verify", "LoadJobs",

        // Services: a local run, the agent, stores, reports.
        "Runs", "Agent", "Store", "Reports",

        // The command line: parse, call one service, render.
        "Commands",
    ];

    public static TheoryData<string> Folders() => [.. HostFolders()];

    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_folder_of_the_host_has_a_place_in_the_stack()
    {
        Assert.Empty(HostFolders().Except(Layers));
        Assert.Empty(Layers.Except(HostFolders()));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [MemberData(nameof(Folders))]
    public void A_folder_uses_only_itself_and_the_folders_below_it(string folder)
    {
        var rank = Array.IndexOf(Layers, folder);
        var violations = new List<string>();
        foreach (var file in Directory.EnumerateFiles(Path.Combine(HostRoot, folder), "*.cs", SearchOption.AllDirectories))
        {
            var text = File.ReadAllText(file);
            foreach (Match match in HostNamespace().Matches(text))
            {
                var used = match.Groups[1].Value;
                var usedRank = Array.IndexOf(Layers, used);
                if (usedRank > rank)
                {
                    violations.Add($"{Path.GetRelativePath(HostRoot, file)} uses {used}");
                }
            }
        }

        Assert.True(violations.Count == 0, string.Join(Environment.NewLine, violations.Distinct()));
    }

    [Fact]
    public void The_plugin_contract_holds_only_what_plugins_use()
    {
        var contract = Path.Combine(TestPaths.RepoRoot, "src", "Abstractions");
        Assert.Equal(["Scenarios", "Servers"], Directory.GetDirectories(contract).Select(Path.GetFileName).Where(n => n is not ("bin" or "obj")).Order(StringComparer.Ordinal));
    }

    private static string HostRoot => Path.Combine(TestPaths.RepoRoot, "src", "Host");

    private static IEnumerable<string> HostFolders() =>
        Directory.GetDirectories(HostRoot).Select(d => Path.GetFileName(d)!).Where(n => n is not ("bin" or "obj" or "Properties"));

    [GeneratedRegex(@"\bBenchmarks\.Host\.([A-Za-z]+)\b")]
    private static partial Regex HostNamespace();
}

using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// Every external tool a test starts (directly, or through the host as a generator, proxy or profiler) is on
/// eng/tools.list, which eng/test.sh installs before the first test; and no test installs anything.
/// </summary>
public sealed partial class ToolListTests
{
    /// <summary>What every machine that runs the tests has without a package of its own: the shell, coreutils, the SDK.</summary>
    private static readonly HashSet<string> s_baseSystem = new(StringComparer.Ordinal) { "bash", "sh", "kill", "chown", "dotnet" };

    /// <summary>Built-in names that the same options take, which start no tool, and the name the bad-input tests give to be refused.</summary>
    private static readonly HashSet<string> s_builtIn = new(StringComparer.Ordinal) { "builtin", "sockets", "epoll", "none", "auto", "nope" };

    [GeneratedRegex("""(?:ExternalTool\.RunAsync|new """ +
        """ProcessStartInfo|Process\.Start|Tools\.Require|Tools\.Find)\("([A-Za-z0-9._-]+)"|"--(?:generator|engine|proxy|profiler|load)",""" +
        """ "([A-Za-z0-9._-]+)"|\[InlineData\("(nginx|haproxy|wrk|h2load|perf)"\)\]""")]
    private static partial Regex StartedTool();

    [GeneratedRegex("""Process(?:StartInfo)?\(\s*"(?:apt-get|apt|dpkg)"|"[^"]*install-tools\.sh"|Tools\.InstallAsync\(""")]
    private static partial Regex Installs();

    private static IEnumerable<string> TestSources() =>
        Directory.EnumerateFiles(Path.Combine(TestPaths.RepoRoot, "tests"), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal));

    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_tool_a_test_starts_is_on_the_list_that_the_test_script_installs()
    {
        var started = TestSources()
            .SelectMany(file => StartedTool().Matches(File.ReadAllText(file)).Select(m => (Tool: m.Groups.Values.Skip(1).First(g => g.Success).Value,
                File: Path.GetFileName(file))))
            .Where(t => !s_baseSystem.Contains(t.Tool) && !s_builtIn.Contains(t.Tool))
            .ToList();

        // The scan finds the tools it must (it would find nothing if its pattern broke).
        Assert.Contains(started, t => t.Tool == "nginx");
        Assert.Contains(started, t => t.Tool == "h2load");
        Assert.Contains(started, t => t.Tool == "wine");
        var unlisted = started.Where(t => !Tools.Listed.ContainsKey(t.Tool)).Select(t => $"{t.Tool} ({t.File})").Distinct().ToList();
        Assert.True(unlisted.Count == 0, $"started by tests but not on {Tools.ListPath}: {string.Join(", ", unlisted)}");
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void No_test_installs_a_tool_and_the_test_script_installs_the_whole_list()
    {
        // InstallScriptTests runs the script against a stand-in package manager: it installs nothing.
        var installing = TestSources()
            .Where(file => Path.GetFileName(file) != nameof(InstallScriptTests) + ".cs" && Installs().IsMatch(File.ReadAllText(file)))
            .Select(Path.GetFileName)
            .ToList();
        Assert.True(installing.Count == 0, $"tests that install: {string.Join(", ", installing)}; put the tool on {Tools.ListPath} instead");

        var script = File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "eng", "test.sh"));
        Assert.Matches(@"\nbash eng/install-tools\.sh >", script);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_dependencies_page_names_every_package_on_the_list()
    {
        var page = File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "docs", "dependencies.md"));
        var missing = Tools.Listed.Values.Distinct().Where(package => !page.Contains($"`{package}`", StringComparison.Ordinal)).ToList();
        Assert.True(missing.Count == 0, $"docs/dependencies.md does not name {string.Join(", ", missing)}");
    }
}

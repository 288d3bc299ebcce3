namespace Benchmarks.Tests.Support;

/// <summary>
/// The external tools the tests start: each is on eng/tools.list, which eng/test.sh installs before the first test
/// starts. A test asks for its tool and fails naming the list when the tool is not on it or not installed; it never
/// installs (installs from tests collided on the package manager's lock and passed only where the tool already was).
/// </summary>
internal static class Tools
{
    public const string ListPath = "eng/tools.list";

    /// <summary>The list's commands and the Debian package of each.</summary>
    public static IReadOnlyDictionary<string, string> Listed { get; } = File.ReadAllLines(Path.Combine(TestPaths.RepoRoot, ListPath))
        .Select(line => line.Trim())
        .Where(line => line.Length > 0 && !line.StartsWith('#'))
        .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        .ToDictionary(fields => fields[0], fields => fields[1], StringComparer.Ordinal);

    /// <summary>Fails the test unless <paramref name="tool"/> is on the list and on PATH; returns its full path.</summary>
    public static string Require(string tool)
    {
        Assert.True(Listed.ContainsKey(tool),
            $"{tool} is not on {ListPath}: add it there (command and Debian package), so that eng/test.sh installs it before the tests.");
        var found = Find(tool);
        Assert.True(found is not null,
            $"{tool} is not installed: eng/test.sh installs every tool on {ListPath} before the tests start (bash eng/install-tools.sh does it alone).");
        return found!;
    }

    /// <summary>The tool's full path on PATH, or null.</summary>
    public static string? Find(string tool) => (Environment.GetEnvironmentVariable("PATH") ?? "")
        .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(directory => Path.Combine(directory, tool))
        .FirstOrDefault(File.Exists);
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// Lines of C# stay within the length .editorconfig states (<c>max_line_length</c>): documentation
/// comments always; code as a ratchet, since lines written before the limit are wrapped as their
/// files change: the count of longer ones in src and in tests may fall, never rise.
/// </summary>
public sealed class LineLengthTests
{
    /// <summary>The editorconfig's <c>max_line_length</c> for C#.</summary>
    private const int Limit = 160;

    /// <summary>
    /// Code lines over the limit (src, tests): 1,000 and 593 when it was set, then wrapped at token boundaries
    /// outside literals; lower these as the rest are wrapped by hand.
    /// </summary>
    private static readonly Dictionary<string, int> s_ceilings = new(StringComparer.Ordinal) { ["src"] = 26, ["tests"] = 15 };

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_editorconfig_states_the_limit_this_test_holds()
    {
        var editorconfig = File.ReadAllLines(Path.Combine(TestPaths.RepoRoot, ".editorconfig"));
        var csharp = editorconfig.SkipWhile(l => l.Trim() != "[*.cs]").Skip(1).TakeWhile(l => !l.TrimStart().StartsWith('['));
        Assert.Contains($"max_line_length = {Limit}", csharp);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("src")]
    [InlineData("tests")]
    public void No_documentation_line_is_longer_and_no_more_code_lines_are_than_before(string folder)
    {
        var longer = Sources(folder)
            .SelectMany(f => File.ReadLines(f).Select((line, i) => (File: f, Number: i + 1, Line: line)))
            .Where(l => l.Line.Length > Limit)
            .ToList();

        var documentation = longer.Where(l => l.Line.TrimStart().StartsWith("///", StringComparison.Ordinal)).ToList();
        Assert.True(documentation.Count == 0, $"documentation lines over {Limit} characters (wrap them):{Environment.NewLine}{Describe(documentation)}");

        var code = longer.Count - documentation.Count;
        var most = longer.GroupBy(l => l.File)
            .OrderByDescending(g => g.Count())
            .Take(10)
            .Select(g => $"  {g.Count(),4}  {Path.GetRelativePath(TestPaths.RepoRoot, g.Key)}");
        Assert.True(
            code <= s_ceilings[folder],
            $"{code} code lines over {Limit} characters in {folder}, {s_ceilings[folder]} before: wrap the new ones "
                + "(python3 eng/wrap-long-lines.py FILE wraps most at token boundaries). "
                + $"The files with the most:{Environment.NewLine}{string.Join(Environment.NewLine, most)}");
    }

    private static string Describe(IEnumerable<(string File, int Number, string Line)> lines) =>
        string.Join(Environment.NewLine, lines.Take(20).Select(l => $"  {Path.GetRelativePath(TestPaths.RepoRoot, l.File)}:{l.Number} ({l.Line.Length})"));

    private static IEnumerable<string> Sources(string folder) =>
        Directory.EnumerateFiles(Path.Combine(TestPaths.RepoRoot, folder), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal));
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// Lines of C# stay within the length .editorconfig states (<c>max_line_length</c>), code and
/// comments alike, in src and in tests: a longer line fails with its file and line, and
/// <c>eng/wrap-long-lines.py</c> wraps most at token boundaries.
/// </summary>
public sealed class LineLengthTests
{
    /// <summary>The editorconfig's <c>max_line_length</c> for C#.</summary>
    private const int Limit = 160;

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
    public void No_line_is_longer_than_the_limit(string folder)
    {
        var longer = Sources(folder)
            .SelectMany(f => File.ReadLines(f).Select((line, i) => (File: f, Number: i + 1, Line: line)))
            .Where(l => l.Line.Length > Limit)
            .ToList();

        Assert.True(
            longer.Count == 0,
            $"{longer.Count} lines over {Limit} characters in {folder} (python3 eng/wrap-long-lines.py FILE wraps most at token boundaries):"
                + $"{Environment.NewLine}{Describe(longer)}");
    }

    private static string Describe(IEnumerable<(string File, int Number, string Line)> lines) =>
        string.Join(Environment.NewLine, lines.Take(20).Select(l => $"  {Path.GetRelativePath(TestPaths.RepoRoot, l.File)}:{l.Number} ({l.Line.Length})"));

    private static IEnumerable<string> Sources(string folder) =>
        Directory.EnumerateFiles(Path.Combine(TestPaths.RepoRoot, folder), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal));
}

using System.Reflection;
using System.Text.RegularExpressions;
using Benchmarks.Host.Cli;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Cli;

/// <summary>The README's exit codes against the code: every code the tool can return is listed there, and the README lists no other.</summary>
public sealed partial class ReadmeExitCodeTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_readme_lists_every_exit_code_and_no_other()
    {
        var readme = File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "README.md"));
        var start = readme.IndexOf("Exit codes: ", StringComparison.Ordinal);
        Assert.True(start >= 0, "the README has no 'Exit codes:' paragraph");
        var paragraph = readme[start..readme.IndexOf("\n\n", start, StringComparison.Ordinal)];

        // "0 success; 1 the run happened…; 2 bad command line…": each code opens a clause.
        var listed = Code().Matches(paragraph).Select(m => int.Parse(m.Groups["code"].Value, System.Globalization.CultureInfo.InvariantCulture)).ToHashSet();
        var codes = typeof(ExitCodes)
            .GetFields(BindingFlags.Public | BindingFlags.Static)
            .Where(f => f.IsLiteral)
            .Select(f => (int)f.GetRawConstantValue()!)
            .ToHashSet();
        Assert.Equal(codes.Order(), listed.Order());
    }

    [GeneratedRegex(@"(?:Exit codes: |;\s+)(?<code>\d+) ")]
    private static partial Regex Code();
}

using System.Text.RegularExpressions;
using Benchmarks.Host.Agent.Building;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Cli;

/// <summary>
/// Every <c>benchmarks …</c> command the README and the docs show, as written: it parses, and a run's is planned
/// (scenario, server, options and their combination checked) without starting anything. The README's first screen
/// once showed an agent command that exited 2.
/// </summary>
public sealed partial class DocumentedCommandTests
{
    [GeneratedRegex(@"^\s*benchmarks (?<line>[a-z].*?)(?:\s{2,}#.*)?$")]
    private static partial Regex Command();

    public static TheoryData<string, string> Commands()
    {
        var data = new TheoryData<string, string>();
        var files = new[] { Path.Combine(TestPaths.RepoRoot, "README.md") }.Concat(Directory.GetFiles(Path.Combine(TestPaths.RepoRoot, "docs"), "*.md"));
        foreach (var file in files)
        {
            var inBlock = false;
            var number = 0;
            foreach (var text in File.ReadLines(file))
            {
                number++;
                if (text.TrimStart().StartsWith("```", StringComparison.Ordinal))
                {
                    inBlock = !inBlock;
                    continue;
                }

                if (inBlock
                    && Command().Match(text) is { Success: true } match
                    && !match.Groups["line"].Value.Contains('…', StringComparison.Ordinal)
                    && !match.Groups["line"].Value.Contains('<', StringComparison.Ordinal))
                {
                    data.Add($"{Path.GetFileName(file)}:{number}", match.Groups["line"].Value.Trim());
                }
            }
        }

        return data;
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_docs_show_commands_to_check() => Assert.True(Commands().Count >= 10, $"{Commands().Count} commands found in the README and docs");

    [Trait("Tier", "Fast")]
    [Theory]
    [MemberData(nameof(Commands))]
    public async Task A_documented_command_parses_and_a_run_is_planned(string where, string line)
    {
        string[] arguments = [.. CommandLineSplitter.Split(line)];

        // A sweep is each of its cells, as run itself checks them before the first starts.
        var cells = Benchmarks.Host.Sweeps.SweepPlan.TryCreate(arguments) is { } sweep ? sweep.Cells.Select(c => c.Arguments.ToArray()).ToList() : [arguments];
        foreach (var cell in cells)
        {
            using var output = new StringWriter();
            var parse = BenchmarksCli.Create(new CliConsole(output, output)).Parse(cell);
            Assert.True(parse.Errors.Count == 0, $"{where}: benchmarks {string.Join(' ', cell)}: {string.Join("; ", parse.Errors.Select(e => e.Message))}");
            if (cell[0] == "run" && !cell.Contains("--find-max") && !cell.Contains("--rate-steps"))
            {
                var run = await InProcessCli.InvokeAsync([.. cell, Benchmarks.Host.Sweeps.SweepRunner.CheckOnlyOption]);
                Assert.True(run.ExitCode == 0, $"{where}: benchmarks {string.Join(' ', cell)}: {run}");
            }
        }
    }
}

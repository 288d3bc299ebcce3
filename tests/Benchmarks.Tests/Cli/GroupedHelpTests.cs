using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Cli;

/// <summary>
/// <c>run</c>, <c>load</c>, <c>serve</c> and <c>verify --help</c>: options under headings, each
/// once, with its default; hidden ones stay hidden.
/// </summary>
public sealed class GroupedHelpTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Run_help_sorts_every_visible_option_under_a_heading_once_with_its_default()
    {
        var help = await InProcessCli.InvokeAsync("run", "--help");

        Assert.True(help.ExitCode == 0, help.ToString());
        var text = help.Output;
        string[] headings = ["Server:", "Load shape:", "Open model and targets:", "Repeats:", "Placement and limits:", "Output and storage:", "WebSocket load:",
            "WebSocket broadcast:", "TCP load:"];
        var at = headings.Select(h => text.IndexOf("\n" + h + "\n", StringComparison.Ordinal)).ToList();
        Assert.All(at, i => Assert.True(i > 0, text));
        Assert.Equal(at.Order(), at);
        Assert.Contains("makes a sweep", text, StringComparison.Ordinal);

        // Each option once, under its heading, with its choices and default.
        string Section(string heading) => text[text.IndexOf("\n" + heading + "\n", StringComparison.Ordinal)..][(heading.Length + 2)..].Split("\n\n")[0];
        Assert.Contains("-c, --connections <connections>", Section("Load shape:"), StringComparison.Ordinal);
        Assert.Contains("--proxy <haproxy|nginx|none>", Section("Placement and limits:"), StringComparison.Ordinal);
        Assert.Contains("--server-cpu-limit <server-cpu-limit>", Section("Placement and limits:"), StringComparison.Ordinal);
        Assert.Contains("--server-memory-limit <server-memory-limit>", Section("Placement and limits:"), StringComparison.Ordinal);
        Assert.Contains("-i, --iterations <iterations> Measured windows", Flat(Section("Repeats:")), StringComparison.Ordinal);
        Assert.Contains("[default: 1]", Flat(Section("Repeats:")), StringComparison.Ordinal);
        Assert.Contains("--generator <builtin|h2load|wrk>", Section("Load shape:"), StringComparison.Ordinal);
        // An option's entry starts two spaces in; a description's lines further.
        var entries = text[text.IndexOf("\nUsage:", StringComparison.Ordinal)..].Split('\n').Where(l => l.StartsWith("  -",
            StringComparison.Ordinal)).Select(l => l.Trim().Split("  ")[0]).ToList();
        foreach (var option in new[] { "--connections", "--quiet", "--tcp-mode", "--limit-rtt", "--rate-steps" })
        {
            Assert.Single(entries, e => e.Split([", ", " "], StringSplitOptions.None).Contains(option));
        }

        // Hidden options, the former names among them, are not shown.
        Assert.DoesNotContain("--sweep-check", text, StringComparison.Ordinal);
        Assert.DoesNotContain("--load ", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Other options:", text, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Load_serve_and_verify_help_have_their_headings_and_other_commands_keep_the_standard_help()
    {
        var load = await InProcessCli.InvokeAsync("load", "--help");
        Assert.True(load.ExitCode == 0, load.ToString());
        Assert.Contains("\nTarget:\n", load.Output, StringComparison.Ordinal);
        Assert.Contains("\nOutput:\n", load.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("--engine", load.Output, StringComparison.Ordinal);

        // serve and verify: what to serve or check, then the wire.
        foreach (var (name, first) in new[] { ("serve", "Server:"), ("verify", "Target:") })
        {
            var help = await InProcessCli.InvokeAsync(name, "--help");
            Assert.True(help.ExitCode == 0, help.ToString());
            var at = help.Output.IndexOf("\n" + first + "\n", StringComparison.Ordinal);
            Assert.True(at > 0 && at < help.Output.IndexOf("\nWire:\n", StringComparison.Ordinal), help.Output);
            Assert.Contains("--certificate-key <ecdsa-p256|rsa2048|rsa4096>", help.Output[help.Output.IndexOf("\nWire:\n", StringComparison.Ordinal)..],
                StringComparison.Ordinal);
            Assert.DoesNotContain("Other options:", help.Output, StringComparison.Ordinal);
        }

        var compare = await InProcessCli.InvokeAsync("compare", "--help");
        Assert.True(compare.ExitCode == 0, compare.ToString());
        Assert.Contains("\nOptions:\n", compare.Output, StringComparison.Ordinal);
    }

    private static string Flat(string text) => System.Text.RegularExpressions.Regex.Replace(text, @"\s+", " ");
}

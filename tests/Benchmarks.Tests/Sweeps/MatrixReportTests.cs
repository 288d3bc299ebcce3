using System.Text.Json.Nodes;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Reports;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Sweeps;

/// <summary>
/// A set of runs as the tables performance engineers publish: Markdown to paste, the OS parity
/// table, a sweep made of crank calls, the proxy in the verdict, and the sweep's terminal view.
/// </summary>
public sealed class MatrixReportTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Runs_from_two_operating_systems_get_a_parity_table_with_the_cpu_mode_in_words()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = DateTimeOffset.UtcNow.AddHours(-1);
        var k = 0;
        foreach (var (os, server, rps, user, kernel) in new[] { ("Linux", "kestrel", 250_000.0, 95.0, 4.0), ("Windows", "kestrel", 210_000.0, 60.0,
            38.0), ("Linux", "sockets", 300_000.0, 30.0, 68.0), ("Windows", "sockets", 0.0, 0.0, 0.0) })
        {
            var run = SampleRuns.Create(server: server, rps: rps, os: os, labels: ["parity"], startedAt: start.AddMinutes(k++),
                status: rps > 0 ? RunStatus.Succeeded : RunStatus.Failed);
            run.Measurements["benchmarks/cpu/user"] = user;
            run.Measurements["benchmarks/cpu/kernel"] = kernel;
            await store.WriteAsync(run, CancellationToken.None);
        }

        var report = await InProcessCli.InvokeAsync("report", "--results", results, "--label", "parity", "--markdown", "-");
        Assert.True(report.ExitCode == 0, report.ToString());
        var lines = report.Output.Split('\n');
        // No run had a proxy, a machine idle figure or a verdict: those columns are left out.
        Assert.Contains("| server | os | rate | p99 ms | errors | server user / kernel % | net rx Mbit/s | status |", lines);
        Assert.Contains(lines,
            l => l.StartsWith("| sockets | Windows | ", StringComparison.Ordinal) && l.EndsWith("| failed: the server exited |", StringComparison.Ordinal));
        Assert.Contains("| server | Linux rate | Linux CPU | Windows rate | Windows CPU |", lines);
        Assert.Contains(
            "| kestrel | 250,000 req/s | CPU 99%, almost exclusively in user mode (96% user) | 210,000 req/s | CPU 98%, mostly in user mode (61% user) |",
            lines);
        // A failed run fills no cell of the parity table.
        Assert.Contains("| sockets | 300,000 req/s | CPU 98%, mostly in kernel mode (31% user) |  |  |", lines);

        // The HTML report carries the same table.
        var stored = await new JsonFileRunStore(results).QueryAsync(new RunQuery { Label = "parity" }, CancellationToken.None);
        var html = HtmlReport.Matrix("parity", [.. stored.Runs]);
        Assert.Contains("<table id=\"parity\">", html, StringComparison.Ordinal);
        Assert.Contains("CPU 99%, almost exclusively in user mode (96% user)", html, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_sweep_of_crank_calls_imported_under_one_label_has_the_swept_axis()
    {
        // One crank call per cell, each --json file imported with the sweep's label (crank/sweep.sh).
        var results = TestPaths.NewTempDirectory();
        var files = new List<string>();
        foreach (var connections in new[] { 64, 256 })
        {
            var json = JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(TestPaths.CrankTranscripts, "pipelined.results.json")))!;
            json["jobResults"]!["jobs"]!["load"]!["variables"]!["connections"] = connections;
            var file = Path.Combine(results, $"cell-{connections}.json");
            await File.WriteAllTextAsync(file, json.ToJsonString());
            files.Add(file);
        }

        var import = await HostRun.StartAsync(results, s_timeout,
            ["results", "import", .. files, "--label", "sweep:crank1", "--results", Path.Combine(results, "store")]);
        Assert.True(import.ExitCode == 0, import.ToString());
        var report = await HostRun.StartAsync(results, s_timeout, "report", "--results", Path.Combine(results, "store"), "--sweep", "crank1", "--markdown",
            "-");
        Assert.True(report.ExitCode == 0, report.ToString());
        var lines = report.Output.Split('\n');
        Assert.Contains("### Sweep crank1: pipelined", lines);
        Assert.Contains(lines, l => l.StartsWith("| connections | rate |", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("| 64 | ", StringComparison.Ordinal) && l.Contains("req/s", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("| 256 | ", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Crank_sweep_script_makes_a_crank_call_per_cell_and_imports_them_as_one_sweep()
    {
        // crank cannot run here: a stand-in answers each call with the recorded --json file of the
        // real controller, its load's connections set to the cell's, and fails the cell 999.
        var results = TestPaths.NewTempDirectory();
        var fake = Path.Combine(results, "crank");
        var recorded = Path.Combine(TestPaths.CrankTranscripts, "pipelined.results.json");
        await File.WriteAllTextAsync(fake, $$"""
            #!/usr/bin/env bash
            echo "$@" >> "{{results}}/calls.txt"
            json=""; c=""
            while [ $# -gt 0 ]; do
              case "$1" in --json) json="$2"; shift ;; --variable) case "$2" in connections=*) c="${2#connections=}" ;; esac; shift ;; esac
              shift
            done
            [ "$c" = 999 ] && exit 1
            sed "s/\"connections\": 256/\"connections\": $c/" "{{recorded}}" > "$json"
            """.ReplaceLineEndings("\n"));
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(fake, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }

        var store = Path.Combine(results, "store");
        var run = await HostRun.StartProcessAsync(results, s_timeout, new Dictionary<string, string> { ["CRANK"] = fake,
            ["BENCHMARKS"] = TestPaths.HostExecutable, ["RESULTS"] = store },
            Path.Combine(TestPaths.RepoRoot, "crank", "sweep.sh"), "--config", "plaintext.yml", "--scenario", "pipelined", "--profile", "local", "--variable",
            "connections=64,999,256", "--variable", "duration=3s");
        Assert.True(run.ExitCode == 1, run.ToString());
        var calls = await File.ReadAllLinesAsync(Path.Combine(results, "calls.txt"));
        Assert.Equal(3, calls.Length);
        Assert.All(calls,
            c =>
                Assert.StartsWith("--config plaintext.yml --scenario pipelined --profile local --variable duration=3s --variable connections=", c,
                    StringComparison.Ordinal));
        Assert.Contains("--variable connections=999 --property connections=999 --json", calls[1], StringComparison.Ordinal);
        Assert.Contains("Sweep ", run.Output, StringComparison.Ordinal);
        Assert.Contains("3 cells, 1 failed", run.Output, StringComparison.Ordinal);
        var lines = run.Output.Split('\n');
        Assert.Contains(lines, l => l.StartsWith("| connections | rate |", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("| 64 | ", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("| 256 | ", StringComparison.Ordinal));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Markdown_needs_a_set_of_runs_and_report_needs_an_output()
    {
        var results = TestPaths.NewTempDirectory();
        var none = await InProcessCli.InvokeAsync("report", "--results", results, "--sweep", "x");
        Assert.Equal(2, none.ExitCode);
        Assert.Contains("report writes --html FILE or --markdown FILE", none.Error, StringComparison.Ordinal);
        var series = await InProcessCli.InvokeAsync("report", "--results", results, "--scenario", "plaintext", "--server", "kestrel", "--markdown", "-");
        Assert.Equal(2, series.ExitCode);
        Assert.Contains("give --sweep ID or --label LABEL", series.Error, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_proxy_that_fills_its_own_cpus_or_most_of_a_shared_machine_is_named()
    {
        var run = SampleRuns.Of(4,
            ("server-cpus", "0"),
            ("load-cpus", "1"),
            ("proxy", "nginx"),
            ("proxy-cpus", "2-3"),
            ("benchmarks/cpu/mean", 15),
            ("load/cpu/user", 10),
            ("load/cpu/kernel", 5),
            ("proxy/cpu", 47),
            ("proxy/cpu/user", 20),
            ("proxy/cpu/kernel", 27),
            ("machine/cpu/idle", 20));
        Assert.StartsWith("the proxy: nginx kept its 2 CPUs 94% busy (20% user, 27% kernel of the machine) while the server used 60% of its CPU",
            VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);

        // Everything on every CPU, the machine full, the proxy the largest share.
        run.Parameters.Remove("server-cpus");
        run.Parameters.Remove("load-cpus");
        run.Parameters.Remove("proxy-cpus");
        run.Measurements["machine/cpu/idle"] = 5;
        Assert.StartsWith(
            "the machine, mostly the proxy: server, nginx and load share its CPUs and it was 95% busy (server 15%, nginx 47%, load 15% of the machine)",
            VerdictLine.Render(BottleneckRule.Judge(run)), StringComparison.Ordinal);
        // 'run plaintext --proxy nginx --proxy-cpus 1' on 2 cores: nginx on the load's CPU, the server on its own at 75%: not nothing saturated.
        run = SampleRuns.Pinned(
            ("proxy", "nginx"),
            ("proxy-cpus", "1"),
            ("benchmarks/cpu/mean", 37.3),
            ("load/cpu/user", 3.4),
            ("load/cpu/kernel", 8.3),
            ("proxy/cpu", 37.9),
            ("machine/cpu/idle", 10.2),
            ("machine/server-cpus/idle", 20.5));
        var cause = BottleneckRule.Judge(run)[0];
        Assert.Equal("proxy", cause.Kind);
        Assert.Equal(
            "the proxy: nginx and the load share CPU and kept it 99% busy (nginx 37.9%, load 11.7% of the machine) while the server used 75% of its CPU; " +
            "give the proxy CPUs of its own (--proxy-cpus)",
            VerdictLine.Render([cause]));
    }

    [Fact]
    public async Task In_a_terminal_the_sweep_draws_rules_and_a_table()
    {
        // 'script' gives the sweep a pseudo-terminal, as a user's shell would.
        var results = TestPaths.NewTempDirectory();
        var command = string.Join(' ', new[] { TestPaths.HostExecutable, "run", "plaintext", "--server", "faulty", "--plugins", TestPaths.SamplePluginDirectory,
            "--server-option", "crashAfterMs=500", "-c", "4,8", "-d", "2s", "-w", "0s", "--no-verify", "--results", results }.Select(a => $"'{a}'"));
        var run = await HostRun.StartProcessAsync(results, s_timeout, new Dictionary<string, string> { ["TERM"] = "xterm-256color", ["COLUMNS"] = "240" },
            "script", "-qec", command, "/dev/null");
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("sweep ", run.Output, StringComparison.Ordinal);
        Assert.Contains("cell 2 of 2", run.Output, StringComparison.Ordinal);
        Assert.Contains("──", run.Output, StringComparison.Ordinal);
        Assert.Contains("╭", run.Output, StringComparison.Ordinal);
        Assert.Contains("--markdown -", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("| connections | rate |", run.Output, StringComparison.Ordinal);
    }
}

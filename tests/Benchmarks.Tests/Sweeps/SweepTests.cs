using Benchmarks.Host.Documents;
using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Sweeps;

/// <summary><c>run</c> with lists: a full run per cell, one document each labelled with the sweep, one table at the end.</summary>
[LongRunning]
public sealed class SweepTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(4);

    [Fact]
    public async Task A_two_by_two_sweep_stores_four_runs_and_prints_one_table()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "kestrel,sockets", "-c", "8,32", "-d", "2s", "-w", "1s",
            "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        for (var k = 1; k <= 4; k++)
        {
            Assert.Contains($"cell {k} of 4:", run.Output, StringComparison.Ordinal);
        }

        var documents = Directory.GetFiles(results, "*.json").Where(f => !f.EndsWith("index.json", StringComparison.Ordinal))
            .Select(f => RunDocumentJson.Deserialize(File.ReadAllText(f))).ToList();
        Assert.Equal(4, documents.Count);
        var label = Assert.Single(documents.SelectMany(d => d.Labels).Distinct());
        Assert.StartsWith("sweep:", label, StringComparison.Ordinal);
        Assert.Equal(["kestrel/32", "kestrel/8", "sockets/32", "sockets/8"],
            documents.Select(d => $"{d.Server}/{d.Parameters["connections"]}").Order(StringComparer.Ordinal));
        Assert.All(documents, d => Assert.Equal(RunStatus.Succeeded, d.Status));

        // One table, a row per cell in the order run, with the swept values first.
        var table = run.Output[run.Output.IndexOf("| server | connections | rate |", StringComparison.Ordinal)..].Split('\n',
            StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(6, table.Length);
        Assert.StartsWith("| kestrel | 8 | ", table[2], StringComparison.Ordinal);
        Assert.StartsWith("| sockets | 32 | ", table[5], StringComparison.Ordinal);
        Assert.All(table.Skip(2), row => Assert.Contains("req/s", row, StringComparison.Ordinal));

        // The sweep's runs are found by its id.
        var list = await HostRun.StartAsync(results, s_timeout, "results", "list", "--results", results, "--sweep", label["sweep:".Length..]);
        Assert.Contains("4 run(s)", list.Output, StringComparison.Ordinal);

        // The matrix report: a row per cell, and each headline against connections, a line per server.
        var html = Path.Combine(results, "sweep.html");
        var report = await HostRun.StartAsync(results, s_timeout, "report", "--results", results, "--sweep", label["sweep:".Length..], "--html", html);
        Assert.True(report.ExitCode == 0, report.ToString());
        var dom = await Chromium.DumpDomAsync(html);
        Assert.Contains($"<h1>Sweep {label["sweep:".Length..]}: plaintext</h1>", dom, StringComparison.Ordinal);

        // The verdict's first clause in the table, each whole under it; no empty proxy column.
        Assert.Equal(4, dom.Split("<li><b>").Length - 1);
        Assert.DoesNotContain("<th>proxy %</th>", dom, StringComparison.Ordinal);
        Assert.Contains("varying: server, connections.", dom, StringComparison.Ordinal);
        Assert.Equal(5, dom.Split("<tr>").Length - 1);
        foreach (var title in new[] { "http/rps/mean by connections", "http/latency/99 by connections", "benchmarks/cpu/mean by connections" })
        {
            Assert.Contains(title, dom, StringComparison.Ordinal);
        }

        Assert.Equal(3, dom.Split("<title>kestrel</title></polyline>").Length - 1);
        Assert.Equal(3, dom.Split("<title>sockets</title></polyline>").Length - 1);
        Assert.Equal(12, dom.Split("class=\"point\"").Length - 1);
    }

    [Fact]
    public async Task Failing_cells_are_recorded_and_the_sweep_completes()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "faulty", "--plugins", TestPaths.SamplePluginDirectory,
            "--server-option", "crashAfterMs=1500", "-c", "4,8", "-d", "3s", "-w", "0s", "--no-verify", "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("cell 2 of 2:", run.Output, StringComparison.Ordinal);
        Assert.Contains("2 cells, 2 failed", run.Output, StringComparison.Ordinal);
        Assert.Equal(2, Directory.GetFiles(results, "*.json").Count(f => !f.EndsWith("index.json", StringComparison.Ordinal)));
        Assert.Equal(2,
            run.Output.Split('\n').Count(l => l.StartsWith("| 4 | ", StringComparison.Ordinal) || l.StartsWith("| 8 | ", StringComparison.Ordinal)));
        Assert.Contains("failed: the server exited during the run", run.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Two_sweeps_compare_cell_by_cell_and_a_cell_that_got_slower_fails_the_comparison()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = DateTimeOffset.UtcNow.AddHours(-1);
        for (var i = 0; i < 5; i++)
        {
            foreach (var (server, before, after) in new[] { ("kestrel", 100_000.0, 101_000.0), ("sockets", 200_000.0, 150_000.0) })
            {
                await store.WriteAsync(SampleRuns.Create(server: server, rps: before + (i * 100), labels: ["sweep:a"], startedAt: start.AddMinutes(i)),
                    CancellationToken.None);
                await store.WriteAsync(SampleRuns.Create(server: server, rps: after + (i * 100), labels: ["sweep:b"], startedAt: start.AddMinutes(10 + i)),
                    CancellationToken.None);
            }
        }

        // A terminal table (numbers aligned right) under the two sides named; Markdown on request.
        var run = await InProcessCli.InvokeAsync("compare", "label:sweep:a", "label:sweep:b", "--by-cell", "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.StartsWith("baseline:  label:sweep:a (10 runs", run.Output, StringComparison.Ordinal);
        Assert.Matches(@"\nkestrel\s+100,200\s+101,200\s+\+1\.0%\s+no change", run.Output);
        Assert.Matches(@"\nsockets\s+200,200\s+150,200\s+-25\.0%\s+WORSE", run.Output);
        Assert.DoesNotContain("|", run.Output, StringComparison.Ordinal);
        Assert.Contains("verdict: WORSE: 1 measurement(s) worse across the cells", run.Output, StringComparison.Ordinal);

        var markdown = await InProcessCli.InvokeAsync("compare", "label:sweep:a", "label:sweep:b", "--by-cell", "--markdown", "--results", results);
        Assert.True(markdown.ExitCode == 1, markdown.ToString());
        Assert.Matches(@"\| kestrel \| 100,200 \| 101,200 \| \+1\.0% \| no change", markdown.Output);
        Assert.Matches(@"\| sockets \| 200,200 \| 150,200 \| -25\.0% \| WORSE", markdown.Output);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_cell_by_cell_comparison_of_single_runs_is_inconclusive_with_exit_code_4()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = DateTimeOffset.UtcNow.AddHours(-1);
        foreach (var (server, before, after) in new[] { ("kestrel", 100_000.0, 140_000.0), ("sockets", 200_000.0, 210_000.0) })
        {
            await store.WriteAsync(SampleRuns.Create(server: server, rps: before, labels: ["sweep:a"], startedAt: start), CancellationToken.None);
            await store.WriteAsync(SampleRuns.Create(server: server, rps: after, labels: ["sweep:b"], startedAt: start.AddMinutes(10)), CancellationToken.None);
        }

        var run = await InProcessCli.InvokeAsync("compare", "label:sweep:a", "label:sweep:b", "--by-cell", "--results", results);
        Assert.True(run.ExitCode == 4, run.ToString());
        Assert.Matches(@"\nkestrel\s+100,000\s+140,000\s+\+40\.0%\s+inconclusive", run.Output);
        Assert.Contains("verdict: inconclusive: 1 run a side cannot reach p < 0.05", run.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_sweep_refuses_one_json_file_for_many_runs()
    {
        var run = await InProcessCli.InvokeAsync("run", "plaintext", "-c", "8,32", "--json", "x.json");
        Assert.Equal(2, run.ExitCode);
        Assert.Contains("a sweep stores a document per cell", run.Error, StringComparison.Ordinal);
    }
}

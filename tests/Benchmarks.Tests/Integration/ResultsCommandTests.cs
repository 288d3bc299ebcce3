using System.Text.RegularExpressions;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Store;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Platform;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>results, compare, history and report through the real executable.</summary>
[LongRunning]
public sealed class ResultsCommandTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_crank_json_file_is_imported_exactly_once_with_every_result()
    {
        var results = TestPaths.NewTempDirectory();
        var fixture = Path.Combine(AppContext.BaseDirectory, "Fixtures", "crank", "pipelined.json");

        var first = await InProcessCli.InvokeAsync("results", "import", fixture, "--label", "lab", "--results", results);
        var second = await InProcessCli.InvokeAsync("results", "import", fixture, "--results", results);

        Assert.True(first.ExitCode == 0, first.ToString());
        Assert.Contains("imported as run", first.Output, StringComparison.Ordinal);
        Assert.Contains("already stored", second.Output, StringComparison.Ordinal);
        var run = StoredRuns.Single(results);
        Assert.Equal("pipelined", run.Scenario);
        Assert.Equal("application", run.Server);
        Assert.Equal(RunStatus.Succeeded, run.Status);
        Assert.Equal(["lab", "crank"], run.Labels);
        Assert.Equal(48.5, run.Measurements["benchmarks/cpu"]);
        Assert.Equal(22.0, run.Measurements["load/benchmarks/cpu"]);
        Assert.Equal(1234567.5, run.Measurements["http/rps/mean"]);
        Assert.Equal(0.91, run.Measurements["http/latency/50"]);
        Assert.Equal(18518512, run.Measurements["http/requests"]);
        Assert.Equal(81.0, run.Measurements["benchmarks/working-set"]);
        Assert.Equal(412.0, run.Measurements["benchmarks/start-time"]);
        Assert.Equal("\"10.0.0\"", run.Parameters["crank/application/aspNetCoreVersion"]);
        Assert.Equal("main", run.Parameters["crank/property/branch"]);
        Assert.Equal(MeasurementCatalog.Find("benchmarks/cpu")!.Description, run.Metadata["benchmarks/cpu"].Description);
        Assert.Equal("%", run.Metadata["benchmarks/cpu"].Unit);
        Assert.Equal("Linux", run.Environment.Os);
        Assert.Equal(28, run.Environment.Cores);
        Assert.Equal(new DateTimeOffset(2026, 11, 20, 10, 0, 0, TimeSpan.Zero), run.StartedAt);
        Assert.Equal([0.0, 1.0, 2.0], run.Samples.Select(s => s.Time));
        Assert.Equal(48.5, run.Samples[1].Values["benchmarks/cpu"]);
        Assert.Equal(1234567.5, run.Samples[1].Values["http/rps/mean"]);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_real_crank_file_is_stored_under_the_scenario_and_server_model_its_jobs_ran()
    {
        // crank e5f71f49's --json output of 'crank --config plaintext.yml --scenario pipelined --profile local'.
        var results = TestPaths.NewTempDirectory();
        var file = Path.Combine(TestPaths.CrankTranscripts, "pipelined.results.json");
        var import = await InProcessCli.InvokeAsync("results", "import", file, "--results", results);
        Assert.True(import.ExitCode == 0, import.ToString());

        var run = StoredRuns.Single(results);
        Assert.Equal("pipelined", run.Scenario);
        Assert.Equal("kestrel", run.Server);
        // The load's shape under a local run's names: a sweep of crank calls has the same axes.
        Assert.Equal("256", run.Parameters["connections"]);
        Assert.Equal("16", run.Parameters["pipeline"]);
        var crank = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(file))!;
        Assert.Equal((double)crank["jobResults"]!["jobs"]!["load"]!["results"]!["http/rps/mean"]!, run.Measurements["http/rps/mean"]);

        // The metadata says how this tool aggregates its own names, never crank's display format.
        Assert.Equal("max", run.Metadata["http/rps/mean"].Aggregate);
        Assert.Equal("sum", run.Metadata["http/rps/mean"].Reduce);
        Assert.Equal("max", run.Metadata["http/latency/99"].Reduce);
        Assert.DoesNotContain(run.Metadata.Values, m => m.Aggregate.StartsWith('n'));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Two_load_instances_histograms_are_merged_into_the_percentiles_of_all_their_requests()
    {
        // crank's --json file of the two-load profile, each load instance's list with the histogram a load
        // prints as a job: one box answered in 1 ms, the other in 5 ms, 1,000 requests each.
        var crank = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(TestPaths.CrankTranscripts, "two-loads.results.json")))!;
        var load = crank["jobResults"]!["jobs"]!["load"]!;
        var instances = load["measurements"]!.AsArray();
        Assert.Equal(2, instances.Count);
        foreach (var (instance, ms) in instances.Zip(new[] { 1, 5 }))
        {
            var histogram = new Benchmarks.Load.Statistics.LatencyHistogram();
            histogram.Record(ms * 1_000_000L, 1_000);
            instance!.AsArray().Add(new System.Text.Json.Nodes.JsonObject
            {
                ["timestamp"] = "2026-12-02T10:00:00Z",
                ["name"] = "http/latency/histogram",
                ["value"] = Benchmarks.Host.LoadJobs.LatencyDistribution.Encode(histogram),
            });
        }

        var run = await CrankFile.ImportAsync(crank);

        // crank's reduce, as recorded, is left as it was; the merged median is the faster box's, the p75 and up the slower's.
        Assert.Equal((double)load["results"]!["http/latency/99"]!, run.Measurements["http/latency/99"]);
        Assert.Equal(1.0, run.Measurements["http/latency/merged/50"], 0.002);
        Assert.Equal(5.0, run.Measurements["http/latency/merged/75"], 0.006);
        Assert.Equal(5.0, run.Measurements["http/latency/merged/99"], 0.006);
        Assert.Equal(3.0, run.Measurements["http/latency/merged/mean"], 0.004);
        Assert.Equal("2", run.Parameters["crank/load/http/latency/merged/instances"]);
        Assert.Equal("ms", run.Metadata["http/latency/merged/99"].Unit);
        Assert.DoesNotContain(run.Measurements.Keys, k => k.EndsWith("/histogram", StringComparison.Ordinal));

        // One instance without its histogram: nothing merged (a merge of some is none of them). One that
        // does not decode: said in a parameter, nothing merged, the rest of the file imported.
        instances[1]!.AsArray().RemoveAt(instances[1]!.AsArray().Count - 1);
        Assert.DoesNotContain((await CrankFile.ImportAsync(crank)).Measurements.Keys, k => k.Contains("/merged/", StringComparison.Ordinal));
        instances[1]!.AsArray()
            .Add(new System.Text.Json.Nodes.JsonObject { ["timestamp"] = "2026-12-02T10:00:00Z", ["name"] = "http/latency/histogram",
                ["value"] = "bm90IGEgaGlzdG9ncmFt" });
        var bad = await CrankFile.ImportAsync(crank);
        Assert.DoesNotContain(bad.Measurements.Keys, k => k.Contains("/merged/", StringComparison.Ordinal));
        Assert.StartsWith("not merged: not a latency histogram", bad.Parameters["crank/load/http/latency/histogram"], StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_crank_file_s_server_runtime_report_is_the_run_s_as_a_local_run_records_its_own()
    {
        // A recorded run, its application's results with the text measurements an agent adds from the server's
        // #runtime-config line (crank keeps each one's first value under its name).
        var crank = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(TestPaths.CrankTranscripts, "pipelined.results.json")))!;
        var results = crank["jobResults"]!["jobs"]!["application"]!["results"]!.AsObject();
        results["benchmarks/runtime/compiled"] = "r2r";
        results["benchmarks/runtime/gc"] = "server";
        results["benchmarks/runtime/heaps"] = "2";
        crank["jobResults"]!["jobs"]!["load"]!["results"]!.AsObject()["benchmarks/runtime/gc"] = "workstation";
        var run = await CrankFile.ImportAsync(crank);
        Assert.Equal(new Dictionary<string, string> { ["compiled"] = "r2r", ["gc"] = "server", ["heaps"] = "2" }, run.Environment.ServerRuntime);
        Assert.DoesNotContain(run.Parameters.Keys,
            k => k.Contains("benchmarks/runtime/", StringComparison.Ordinal) && k.StartsWith("crank/application/", StringComparison.Ordinal));

        // The load's own runtime is not the server's: it stays a parameter of the load's job.
        Assert.Equal("\"workstation\"", run.Parameters["crank/load/benchmarks/runtime/gc"]);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_crank_file_s_collected_dependencies_are_the_run_s_as_a_local_run_records_its_own()
    {
        // The recorded run with collectDependencies, its application's list as crank's agent fills it
        // (the recording's agent published nothing to collect, so it is filled here in crank's shape).
        var crank = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(TestPaths.CrankTranscripts,
            "dependencies-and-scripts.results.json")))!;
        crank["jobResults"]!["jobs"]!["application"]!["dependencies"] = System.Text.Json.Nodes.JsonNode.Parse("""
            [{"Id": "Microsoft.AspNetCore.App", "Names": ["Microsoft.AspNetCore.App"], "RepositoryUrl": "https://github.com/dotnet/aspnetcore",
              "Version": "10.0.12", "CommitHash": "95017c71a2b3c4d5"},
             {"Id": "", "Names": ["Npgsql"], "RepositoryUrl": "", "Version": "10.0.0", "CommitHash": ""}]
            """);
        var run = await CrankFile.ImportAsync(crank);
        Assert.Equal(new Dictionary<string, string> { ["Microsoft.AspNetCore.App"] = "10.0.12+95017c71a", ["Npgsql"] = "10.0.0" },
            run.Environment.Dependencies);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_file_that_is_not_crank_output_is_refused_with_its_name()
    {
        var results = TestPaths.NewTempDirectory();
        var bad = Path.Combine(results, "not-crank.json");
        await File.WriteAllTextAsync(bad, "{\"hello\": 1}");
        var run = await InProcessCli.InvokeAsync("results", "import", bad, "--results", Path.Combine(results, "store"));
        Assert.Equal(1, run.ExitCode);
        Assert.Contains("not-crank.json: not a crank --json file", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compare_groups_prints_verdicts_markdown_and_an_html_report_chromium_renders()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        double[] before = [100_000, 101_000, 99_000, 100_500, 100_200];
        double[] after = [120_000, 121_000, 119_500, 120_300, 122_000];
        for (var i = 0; i < 5; i++)
        {
            await store.WriteAsync(SampleRuns.Create(rps: before[i], latency: 2.0, labels: ["before"], startedAt: start.AddMinutes(i)), CancellationToken.None);
            await store.WriteAsync(SampleRuns.Create(rps: after[i], latency: 1.5, labels: ["after"], startedAt: start.AddMinutes(10 + i)),
                CancellationToken.None);
        }

        var html = Path.Combine(results, "compare.html");
        var table = await HostRun.StartAsync(results, s_timeout, "compare", "label:before", "label=after,scenario=pipelined", "--results", results, "--html",
            html);
        var markdown = await HostRun.StartAsync(results, s_timeout, "compare", "before", "after", "--results", results, "--markdown");

        Assert.True(table.ExitCode == 0, table.ToString());
        Assert.True(Regex.IsMatch(table.Output, @"http/rps/mean\s+100,200\s+120,300\s+\+20\.1%\s+\[\+1[89]\.\d%, \+2\d\.\d%\]\s+0\.008\s+better"),
            table.Output);
        Assert.True(Regex.IsMatch(table.Output, @"http/latency/50\s+2\s+1\.5\s+-25\.0%\s+\[-25\.0%, -25\.0%\]\s+0\.008\s+better"), table.Output);
        Assert.Matches(@"\| `http/rps/mean` \| 100,200 \| 120,300 \| \+20\.1% \| \[[^\]]+\] \| 0\.008 \| better \|", markdown.Output);

        var dom = await Chromium.DumpDomAsync(html);
        Assert.Contains("<h1>Comparison: label=after,scenario=pipelined vs label:before</h1>", dom, StringComparison.Ordinal);
        Assert.Contains(
            "<p class=\"environment\">Measured on bench-1: Linux Debian 12, X64, 2 cores; .NET 10.0.0, SDK 10.0.100; commit abc123; " +
            "10 runs from 2026-11-01 00:00 to 00:14 UTC, 21.5 s each.</p>",
            dom, StringComparison.Ordinal);
        Assert.Matches(@"<tr class=""better""><td><code>http/rps/mean</code></td><td>100,200</td><td>120,300</td><td>\+20\.1%</td>", dom);
        // rps, the distributions of rps and p99, latency, CPU, network, and the per-second samples of each side's first run.
        Assert.Equal(8, CountOf(dom, "<svg class=\"chart\""));
        foreach (var title in new[] { "http/rps/mean per run", "http/rps/mean: every sample", "http/latency/99: every sample", "http/latency/NN per run",
            "benchmarks/cpu/user + benchmarks/cpu/kernel", "net/rx and net/tx", "load/rate each second" })
        {
            Assert.Contains(title, dom, StringComparison.Ordinal);
        }

        Assert.DoesNotContain("http://", dom.Replace("http://www.w3.org/2000/svg", "", StringComparison.Ordinal), StringComparison.Ordinal);
        // Three bar charts of 10 runs x 2 series: rps (baseline, candidate), CPU (user, kernel), network (rx, tx).
        Assert.Equal(60, CountOf(dom, "class=\"bar\""));

        // Each side's distribution: every run a point (5 a side, two measurements), and its median.
        Assert.Equal(20, CountOf(dom, "class=\"sample\""));
        Assert.Equal(4, CountOf(dom, "class=\"median\""));
        Assert.Contains("candidate #5: 122,000 req/s", dom, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new[] { "compare", "0123456789abcdef", "label:before" }, "no run id, id prefix or label matches '0123456789abcdef'")]
    [InlineData(new[] { "compare", "label:before", "label:nobody" }, "'label:nobody' matches no succeeded run")]
    [InlineData(new[] { "compare", "label:before", "label:json" }, "the sides mix scenarios (pipelined, json)")]
    [InlineData(new[] { "compare", "label:before", "color=blue" }, "unknown filter key 'color'")]
    [InlineData(new[] { "results", "show", "ffffffff" }, "no run 'ffffffff'")]
    public async Task Bad_comparisons_are_one_clear_line_and_exit_2(string[] arguments, string expected)
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        await store.WriteAsync(SampleRuns.Create(labels: ["before"]), CancellationToken.None);
        await store.WriteAsync(SampleRuns.Create(scenario: "json", labels: ["json"]), CancellationToken.None);

        var run = await HostRun.StartAsync(results, s_timeout, [.. arguments, "--results", results]);

        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
        Assert.Single(run.Error.Trim().Split('\n'));
    }

    [Fact]
    public async Task A_corrupt_file_is_named_and_the_other_runs_are_still_listed_and_exported()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var good = SampleRuns.Create();
        await store.WriteAsync(good, CancellationToken.None);
        await File.WriteAllTextAsync(Path.Combine(results, "20261101-000000-broken.json"), "{ \"id\": ");

        var list = await HostRun.StartAsync(results, s_timeout, "results", "list", "--results", results);
        var csv = await HostRun.StartAsync(results, s_timeout, "results", "export", "--format", "csv", "--results", results);

        Assert.Equal(0, list.ExitCode);
        Assert.Contains("20261101-000000-broken.json", list.Error, StringComparison.Ordinal);
        Assert.Contains(Benchmarks.Host.Documents.RunId.Short(good.Id), list.Output, StringComparison.Ordinal);
        Assert.Contains("1 run(s)", list.Output, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(results, JsonFileRunStore.IndexFileName)));
        Assert.Contains($"{good.Id},", csv.Output, StringComparison.Ordinal);
        Assert.Contains(",http/rps/mean,100000,req/s", csv.Output, StringComparison.Ordinal);
        Assert.Contains(",\"http load, connections 256, pipeline 16, on bench-1 (2 cores)\",", csv.Output, StringComparison.Ordinal);
        Assert.Contains(" c256 p16 ", list.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task History_exits_1_when_two_results_in_a_row_leave_the_band_and_writes_the_report()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        double[] values = [100, 101, 99, 100, 102, 98, 100, 101, 84, 83];
        for (var i = 0; i < values.Length; i++)
        {
            await store.WriteAsync(SampleRuns.Create(rps: values[i] * 1000, startedAt: start.AddDays(i)), CancellationToken.None);
        }

        var steady = await HostRun.StartAsync(results, s_timeout, "history", "--scenario", "pipelined", "--server", "kestrel", "--where", "until=2026-11-09",
            "--results", results);
        var html = Path.Combine(results, "history.html");
        var flagged = await HostRun.StartAsync(results, s_timeout, "history", "--scenario", "pipelined", "--server", "kestrel", "--results", results, "--html",
            html);

        Assert.True(steady.ExitCode == 0, steady.ToString());
        Assert.Contains("no result flagged", steady.Output, StringComparison.Ordinal);
        Assert.True(flagged.ExitCode == 1, flagged.ToString());
        Assert.Contains("FLAGGED: regression", flagged.Output, StringComparison.Ordinal);
        var dom = await Chromium.DumpDomAsync(html);
        Assert.Contains("<h1>History: pipelined on kestrel</h1>", dom, StringComparison.Ordinal);
        Assert.Equal(1, CountOf(dom, "class=\"point flagged\""));
        Assert.Contains("<td>regression</td>", dom, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compare_exits_4_when_the_runs_cannot_decide_and_1_when_a_significant_change_is_worse()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        for (var i = 0; i < 6; i++)
        {
            // An 84% drop: 3 against 3 cannot show it at p < 0.05; 6 against 6 can.
            await store.WriteAsync(
                SampleRuns.Create(rps: 100_000 + (i * 500), labels: i < 3 ? ["before", "before3"] : ["before"], startedAt: start.AddMinutes(i)),
                CancellationToken.None);
            await store.WriteAsync(
                SampleRuns.Create(rps: 16_000 + (i * 100), labels: i < 3 ? ["after", "after3"] : ["after"], startedAt: start.AddMinutes(10 + i)),
                CancellationToken.None);
        }

        var three = await HostRun.StartAsync(results, s_timeout, "compare", "label:before3", "label:after3", "-m", "http/rps/mean", "--results", results);
        var six = await HostRun.StartAsync(results, s_timeout, "compare", "label:before", "label:after", "-m", "http/rps/mean", "--results", results);

        Assert.True(three.ExitCode == 4, three.ToString());
        Assert.Contains("inconclusive: 3 runs a side cannot reach p < 0.05; run at least 4 a side", three.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("no significant change", three.Output, StringComparison.Ordinal);
        Assert.True(six.ExitCode == 1, six.ToString());
        Assert.Contains("worse: http/rps/mean", six.Error, StringComparison.Ordinal);
        Assert.Matches(@"http/rps/mean\s+101,250\s+16,250\s+-84\.0%\s+\[-8\d\.\d%, -8\d\.\d%\]\s+0\.002\s+WORSE", six.Output);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Results_list_marks_a_run_whose_window_was_not_steady()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var climbing = SampleRuns.Create(labels: ["climbing"]);
        climbing.Window = new WindowCheck { Verdict = "not steady", Series = "load/rate", DriftPercent = 120, TrendZ = 5, Seconds = 15 };
        var flat = SampleRuns.Create(labels: ["flat"]);
        flat.Window = new WindowCheck { Verdict = "steady", Series = "load/rate", DriftPercent = 1, TrendZ = 0.4, Seconds = 15 };
        await store.WriteAsync(climbing, CancellationToken.None);
        await store.WriteAsync(flat, CancellationToken.None);

        var list = await InProcessCli.InvokeAsync("results", "list", "--results", results);

        Assert.True(list.ExitCode == 0, list.ToString());
        Assert.Matches(@"NOT STEADY\s+climbing", list.Output);
        Assert.Matches(@"steady\s+flat", list.Output);
    }

    [Fact]
    public async Task History_follows_one_meaning_of_a_name_and_says_which_runs_it_left_out()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        for (var i = 0; i < 8; i++)
        {
            // Four schema-1 local runs stored benchmarks/cpu as a window mean (40%); four later ones as the busiest second (50%).
            var run = SampleRuns.Create(startedAt: start.AddDays(i));
            run.Schema = i < 4 ? 1 : 2;
            run.Measurements["benchmarks/cpu"] = i < 4 ? 40 : 50;
            run.Metadata["benchmarks/cpu"] = MeasurementCatalog.Find("benchmarks/cpu")!.Info;
            await store.WriteAsync(run, CancellationToken.None);
        }

        var history = await HostRun.StartAsync(results, s_timeout, "history", "--scenario", "pipelined", "--server", "kestrel", "-m", "benchmarks/cpu",
            "--window", "3", "--results", results);

        Assert.True(history.ExitCode == 0, history.ToString());
        Assert.Contains("4 run(s) left out: they computed benchmarks/cpu otherwise than the latest run (max)", history.Output, StringComparison.Ordinal);
        Assert.Contains("(4 runs;", history.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("FLAGGED", history.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_run_ending_while_postgresql_is_down_is_kept_locally_and_pushed_later_exactly_once()
    {
        // A port chosen as every other test's is (a fixed one was once taken first by a crank job's server beside it).
        var postgres = await PostgresServer.PrivateAsync(LoopbackPort.Free());
        try
        {
            var database = await postgres.CreateDatabaseAsync();
            var results = TestPaths.NewTempDirectory();
            var running = HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "sockets", "-d", "3s", "-w", "0s", "-c", "8",
                "--store", database, "--results", results);
            await Task.Delay(TimeSpan.FromSeconds(1));
            await postgres.StopAsync();
            var run = await running;

            Assert.True(run.ExitCode == 0, run.ToString());
            Assert.Contains("is unavailable", run.Error, StringComparison.Ordinal);
            Assert.Contains("results push", run.Error, StringComparison.Ordinal);
            var kept = StoredRuns.Single(results);

            await postgres.RestartAsync();
            var push = await HostRun.StartAsync(results, s_timeout, "results", "push", "--store", database, "--results", results);
            var again = await HostRun.StartAsync(results, s_timeout, "results", "push", "--store", database, "--results", results);
            var list = await HostRun.StartAsync(results, s_timeout, "results", "list", "--store", database);

            Assert.True(push.ExitCode == 0, push.ToString());
            Assert.Contains("pushed 1 run(s)", push.Output, StringComparison.Ordinal);
            Assert.Contains("pushed 0 run(s)", again.Output, StringComparison.Ordinal);
            Assert.Contains("1 already there", again.Output, StringComparison.Ordinal);
            Assert.Contains(Benchmarks.Host.Documents.RunId.Short(kept.Id), list.Output, StringComparison.Ordinal);
            Assert.Contains("1 run(s) in PostgreSQL", list.Output, StringComparison.Ordinal);
        }
        finally
        {
            await postgres.StopAsync();
        }
    }

    private static int CountOf(string text, string part)
    {
        var count = 0;
        for (var i = text.IndexOf(part, StringComparison.Ordinal); i >= 0; i = text.IndexOf(part, i + part.Length, StringComparison.Ordinal))
        {
            count++;
        }

        return count;
    }
}

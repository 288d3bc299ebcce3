using System.Text.Json.Nodes;
using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Verdicts;

/// <summary>
/// The verdict an agent gives a server job from its own seconds, judged on server jobs crank's
/// controller ran on the lab's boxes (tests/Fixtures/crank-results): the server alone on CPU 0 of a
/// two-CPU machine, pipelined plaintext from loads on the other boxes. Each file's answer is known:
/// the server's CPU saturated, or (every link shaped to 200 Mbit/s) its responses filled its link.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class JobVerdictTests
{
    private static string Fixture(string name) => Path.Combine(TestPaths.RepoRoot, "tests", "Fixtures", "crank-results", name);

    private static readonly string s_file = Fixture("pipelined-three-loads.json");

    /// <summary>A job's samples (the application's, or the first load's), one per interval in order, as its agent took them.</summary>
    internal static List<JobSample> ApplicationSamples(string file, string job = "application")
    {
        var crank = JsonNode.Parse(File.ReadAllText(file))!;
        return [.. crank["jobResults"]!["jobs"]![job]!["measurements"]![0]!.AsArray()
            .Where(m => m!["value"] is JsonValue v && v.TryGetValue<double>(out _))
            .GroupBy(m => (string)m!["timestamp"]!)
            .OrderBy(g => DateTimeOffset.Parse(g.Key, System.Globalization.CultureInfo.InvariantCulture))
            .Where(g => g.Count() > 3)
            .Select(g => new JobSample(
                DateTime.Parse(g.Key, System.Globalization.CultureInfo.InvariantCulture, System.Globalization.DateTimeStyles.AdjustToUniversal),
                g.ToDictionary(m => (string)m!["name"]!, m => (double)m!["value"]!)))];
    }

    [Theory]
    [InlineData("pipelined-three-loads.json", "server-cpu")]
    [InlineData("pipelined-lab.json", "server-cpu")]
    [InlineData("pipelined-shaped-200mbit.json", "wire")]
    public void Each_lab_run_is_judged_as_its_known_answer(string file, string expected)
    {
        var verdict = JobVerdict.Judge(ApplicationSamples(Fixture(file)), [0], cores: 2, confined: true);

        Assert.NotNull(verdict);
        Assert.Equal(expected, verdict.Causes[0].Kind);
        Assert.Contains("the load ran elsewhere", verdict.Line, StringComparison.Ordinal);
        Assert.DoesNotContain("load/busy", verdict.Causes[0].Evidence.Keys);
        if (expected == CauseKinds.Wire.Name)
        {
            Assert.True(verdict.Causes[0].Evidence[Benchmarks.Host.Measurements.SystemMeasures.Utilization.Name] >= BottleneckRule.WireLimit, verdict.Line);
        }
        else
        {
            Assert.True(verdict.Causes[0].Evidence["server/busy"] >= BottleneckRule.CpuLimit, verdict.Line);
        }
    }

    [Theory]
    [InlineData("pipelined-lab.json", "server-cpu", "the stack: ")]
    [InlineData("pipelined-shaped-200mbit.json", "wire", "the wire: ")]
    public async Task The_agents_verdict_reached_crank_and_is_imported_as_the_runs(string file, string kind, string line)
    {
        // What the agent sent with the application's results, as crank wrote them, then as results import stores them.
        var crank = JsonNode.Parse(await File.ReadAllTextAsync(Fixture(file)))!;
        var results = crank["jobResults"]!["jobs"]!["application"]!["results"]!;
        Assert.Equal(kind, (string)results[JobVerdict.Kinds]!);
        Assert.StartsWith(line, (string)results[JobVerdict.Bound]!, StringComparison.Ordinal);

        var run = await CrankFile.ImportAsync(crank);
        Assert.StartsWith(line, run.Bottleneck, StringComparison.Ordinal);
        Assert.Equal(kind, run.Causes[0].Kind);
        Assert.NotEmpty(run.Causes[0].Evidence);
        Assert.DoesNotContain(run.Parameters.Keys, k => k.Contains("bound", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Each_box_the_run_used_is_named_in_the_import()
    {
        // The agents' /info, as crank kept it for each job: the server's box on CPU 0 behind its shaped link, the load's on CPU 1.
        var run = await CrankFile.ImportAsync(JsonNode.Parse(await File.ReadAllTextAsync(Fixture("pipelined-shaped-200mbit.json")))!);
        Assert.StartsWith("10.77.0.11:5010 (", run.Parameters["crank/application/box"], StringComparison.Ordinal);
        Assert.EndsWith("CPUs 0 of 2, eth0 at 200 Mbit/s (qdisc)", run.Parameters["crank/application/box"], StringComparison.Ordinal);
        Assert.EndsWith("CPUs 1 of 2, eth0 at 200 Mbit/s (qdisc)", run.Parameters["crank/load/box"], StringComparison.Ordinal);
        Assert.Equal(("eth0", false, 200.0, "qdisc"),
            (run.Environment.Network!.Interface, run.Environment.Network.Loopback, run.Environment.Network.LinkSpeed!.Value,
             run.Environment.Network.LinkSpeedSource));
        Assert.Equal(2, run.Environment.Cores);

        // A report of the run names them in its head.
        var head = Benchmarks.Host.Reports.ReportEnvironment.Describe([run]);
        Assert.Contains("boxes: application on 10.77.0.11:5010", head, StringComparison.Ordinal);
        Assert.Contains("; load on 10.77.0.12:5010", head, StringComparison.Ordinal);
    }

    [Fact]
    public void A_load_beside_the_server_counts_its_cpu_over_the_same_seconds()
    {
        // The lab run's load (on CPU 1) as if the same agent had run it: its CPU in the server's span joins the verdict.
        var file = Fixture("pipelined-lab.json");
        var load = ApplicationSamples(file, "load");
        var verdict = JobVerdict.Judge(ApplicationSamples(file), [0], cores: 2, confined: false, [new LoadSamples(load, [1])]);

        Assert.NotNull(verdict);
        Assert.Equal(CauseKinds.ServerCpu.Name, verdict.Causes[0].Kind);
        Assert.Contains("the load ran on this machine too", verdict.Line, StringComparison.Ordinal);
        var busy = verdict.Causes[0].Evidence["load/busy"];
        var inSpan = load.Where(s => s.Values.ContainsKey("benchmarks/cpu/mean")).Select(s => s.Values["benchmarks/cpu/mean"]).ToList();
        Assert.InRange(busy, inSpan.Min() * 2 - 0.01, inSpan.Max() * 2 + 0.01);
    }

    [Fact]
    public void A_saturated_server_job_is_judged_on_the_seconds_its_last_load_ran()
    {
        var verdict = JobVerdict.Judge(ApplicationSamples(s_file), [0], cores: 2, confined: true);

        Assert.NotNull(verdict);
        // The last load ran in seconds 59–67 of the job (the server at 18–49% of the machine; before it, a build and a first load):
        // its partial edges dropped, the span lies inside it.
        Assert.InRange(verdict.Span.Start, 58, 60);
        Assert.InRange(verdict.Span.End, 63, 65);
    }

    [Fact]
    public void On_all_the_machines_cpus_the_same_seconds_are_half_of_it_and_nothing_saturated()
    {
        // The same job as if it had run on both CPUs: 49% of the machine is half its CPUs, and the box's idle is the machine's.
        var verdict = JobVerdict.Judge(ApplicationSamples(s_file), cpus: null, cores: 2, confined: false);

        Assert.NotNull(verdict);
        Assert.NotEqual(CauseKinds.ServerCpu.Name, verdict.Causes[0].Kind);
        Assert.InRange(verdict.Causes[0].Evidence["server/busy"], 90 / 2.0, 55);
    }

    [Fact]
    public void Totals_since_the_jobs_start_count_over_the_loaded_seconds_only()
    {
        // Drops and bytes are totals since the job started: 500 drops and 1 MB before the load, 100 more drops and 8 MB in its span.
        var at = new DateTime(2026, 12, 7, 12, 0, 0, DateTimeKind.Utc);
        var samples = Enumerable.Range(0, 12).Select(i =>
        {
            var loaded = i is >= 3 and <= 10;
            var inSpan = Math.Clamp(i - 3, 0, 8);
            return new JobSample(at.AddSeconds(i), new Dictionary<string, double>
            {
                ["benchmarks/cpu/mean"] = loaded ? 40 : 0.2,
                ["net/rx/packets"] = loaded ? 20_000 : 2,
                ["net/tx/packets"] = loaded ? 20_000 : 1,
                ["net/drops"] = 500 + (inSpan * 12.5),
                ["net/rx/bytes"] = 1_000_000 + (inSpan * 1_000_000),
            });
        }).ToList();

        var verdict = JobVerdict.Judge(samples, null, cores: 2, confined: false);

        Assert.NotNull(verdict);
        // Seconds 4–9 (3–10 without their partial edges): 6 s of 12.5 drops, of 40,012.5 packets each.
        Assert.Equal(new LoadedSpan(4, 9), verdict.Span);
        var evidence = verdict.Causes[0].Evidence;
        Assert.Equal(75, evidence["net/drops"], 6);
        Assert.Equal(75 / ((6 * 40_000) + 75.0) * 100, evidence["net/drops/share"], 6);
    }

    [Fact]
    public void A_job_never_loaded_has_no_verdict()
    {
        JobSample Idle(double cpu) => new(DateTime.UtcNow, new Dictionary<string, double> { ["benchmarks/cpu/mean"] = cpu });
        Assert.Null(JobVerdict.Judge([Idle(0), Idle(0.5), Idle(0), Idle(0.4)], null, 2, false));
        Assert.Null(JobVerdict.Judge([], null, 2, false));
    }

    [Theory]
    // The last run of loaded seconds, its partial edges dropped.
    [InlineData(new[] { 0, 0, 30, 50, 50, 50, 20, 0 }, 3, 4)]
    // One quiet second inside a span is part of it (a GC, a hiccup); two end it.
    [InlineData(new[] { 0, 40, 50, 50, 10, 50, 50, 50, 5 }, 2, 6)]
    [InlineData(new[] { 0, 40, 50, 50, 10, 10, 50, 50, 50, 50, 5 }, 7, 8)]
    // One start-up second does not set the peak: the load's 20% seconds are the span.
    [InlineData(new[] { 90, 0, 0, 20, 20, 20, 20, 20, 0 }, 4, 6)]
    // A long span drops its first quarter, where the warm-up falls: seconds 2–12 without their edges, then 4–12.
    [InlineData(new[] { 0, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 0 }, 4, 12)]
    public void The_loaded_span_is_the_last_run_of_seconds_at_half_the_peak(int[] cpu, int start, int end)
    {
        var span = LoadedSpan.Find([.. cpu.Select(c => (double)c)]);
        Assert.Equal(new LoadedSpan(start, end), span);
    }

    [Fact]
    public void Many_packets_on_the_interface_say_when_the_load_ran_and_few_leave_it_to_the_cpu()
    {
        // A server behind a slow link: its CPU barely moves (its start-up's second is the busiest), its packets show the load
        // (seconds 5–9, the first and last of them partial).
        double[] cpu = [0, 3, 0, 0, 1.2, 1.3, 1.2, 1.2, 1.3, 1.2, 0];
        double[] packets = [2, 0, 2, 0, 1500, 9000, 9100, 9000, 8900, 9000, 2];
        Assert.Equal(new LoadedSpan(6, 8), LoadedSpan.Find(cpu, packets));

        // Loopback traffic the interface did not see: the CPU's span, from its own edges.
        Assert.Equal(new LoadedSpan(5, 8), LoadedSpan.Find(cpu, [.. packets.Select(_ => 2.0)]));
    }

    [Fact]
    public void A_span_too_short_to_judge_is_none()
    {
        Assert.Null(LoadedSpan.Find([0, 50, 50, 0]));
        Assert.Null(LoadedSpan.Find([0, 0.4, 0.8, 0]));
    }
}

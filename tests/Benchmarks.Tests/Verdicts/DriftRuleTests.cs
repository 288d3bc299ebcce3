using Benchmarks.Host.Documents;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Verdicts;

/// <summary>
/// What moved a window's rate, judged on real runs whose answer is known (tests/Fixtures/runs: the
/// README's main job on this project's 2-CPU machines, and the same job with busy processes started
/// on a CPU 30 s in, the window's last seconds), then on the rule's other branches with figures
/// made to hit them.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class DriftRuleTests
{
    private static RunDocument Judged(string name)
    {
        var document = RunDocumentJson.Deserialize(File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "tests", "Fixtures", "runs", name + ".json")));
        RunVerdicts.Judge(document);
        return document;
    }

    [Fact]
    public void A_window_that_sagged_while_each_request_took_more_of_a_busy_server_is_the_machines_speed()
    {
        // 366k req/s for 5 s, then 250k: the server's CPU 100% busy throughout, its user-mode CPU per request up by two thirds,
        // its GC, threads and contentions flat. Before: "something else moved the rate (the machine, the GC, the load)".
        var window = Judged("readme-job-machine-slowed").Window!;
        Assert.Equal("not steady", window.Verdict);
        var cause = Assert.IsType<VerdictCause>(window.Cause);
        Assert.Equal("machine-speed", cause.Kind);
        Assert.Equal(VerdictCause.Sure, cause.Certainty);
        Assert.InRange(cause.Evidence["drift/cpu-per-request/user"], 50, 80);
        Assert.InRange(cause.Evidence["drift/cpu-per-request/kernel"], -10, 10);
        var line = WindowText.Describe(window);
        Assert.Contains("the server's JIT was quiet, so not its warm-up: the window's last 5 s served 29% less than the window's first 5 s", line,
            StringComparison.Ordinal);
        Assert.Contains("each request cost the server 42% more CPU (user mode +64%, kernel +1%) on CPUs busy throughout", line, StringComparison.Ordinal);
        Assert.DoesNotContain("something else moved the rate", line, StringComparison.Ordinal);
    }

    [Fact]
    public void A_process_that_took_the_servers_cpu_is_named_not_the_warm_up()
    {
        // A busy loop pinned on the server's CPU 30 s into a run with a fixed 20 s warm-up, whose JIT still compiled 146 ms as
        // the window opened: before, the line said to warm up longer.
        var window = Judged("busy-process-on-server-cpu").Window!;
        var cause = Assert.IsType<VerdictCause>(window.Cause);
        Assert.Equal("machine-busy", cause.Kind);
        Assert.True(cause.Evidence["drift/server-busy/slower"] < 80, string.Join(", ", cause.Evidence));
        var line = WindowText.Describe(window);
        Assert.Contains("another process took the server's CPUs (the server's use of its CPUs fell from 100% to 63%, while they stayed 100% busy)", line,
            StringComparison.Ordinal);
        Assert.DoesNotContain("warm up longer", line, StringComparison.Ordinal);
        Assert.EndsWith("the server's JIT was still compiling when it began (146 ms in its first 5 s)", line, StringComparison.Ordinal);
    }

    [Fact]
    public void Processes_busy_beside_the_load_are_the_machines_other_work()
    {
        var window = Judged("busy-processes-on-load-cpu").Window!;
        var cause = Assert.IsType<VerdictCause>(window.Cause);
        Assert.Equal("machine-busy", cause.Kind);
        Assert.True(cause.Evidence["drift/other-work/slower"] - cause.Evidence["drift/other-work/faster"] > 20, string.Join(", ", cause.Evidence));
        Assert.Contains("; repeat the run (--iterations) before trusting one figure", WindowText.Describe(window), StringComparison.Ordinal);
    }

    [Fact]
    public void A_steady_window_below_its_warm_up_says_what_moved_between_them_and_a_steady_one_at_its_level_says_nothing()
    {
        var fell = Judged("readme-job-fell-from-warmup").Window!;
        Assert.Equal("steady", fell.Verdict);
        Assert.Equal("machine-speed", fell.Cause?.Kind);
        Assert.Contains("the server fell from where it had been (the window served 18% less than the warm-up's best 6 s", WindowText.Describe(fell),
            StringComparison.Ordinal);

        var steady = Judged("readme-job-steady").Window!;
        Assert.Equal("steady", steady.Verdict);
        Assert.Null(steady.Cause);
        Assert.DoesNotContain("served", WindowText.Describe(steady), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compare_says_how_each_sides_windows_held_when_one_moved_and_nothing_when_all_held()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new Benchmarks.Host.Store.JsonFileRunStore(results);
        foreach (var (name, label) in new[]
        {
            ("readme-job-steady", "before"), ("readme-job-fell-from-warmup", "before"), ("readme-job-machine-slowed", "after"),
            ("busy-process-on-server-cpu", "after"), ("readme-job-steady", "steady"),
        })
        {
            var run = Judged(name);
            run.Id = Guid.CreateVersion7().ToString("N");
            run.Labels = [label];
            await store.WriteAsync(run, CancellationToken.None);
        }

        var compare = await InProcessCli.InvokeAsync("compare", "label:before", "label:after", "--results", results);
        Assert.True(compare.Output.Contains("window: baseline steady (1 of 2), steady, below its warm-up: machine-speed (1 of 2); candidate not steady, " +
            "below its warm-up: machine-speed (1 of 2), not steady: machine-busy (1 of 2) (a change over windows that moved is not the stack's alone",
            StringComparison.Ordinal), compare.Output);

        var held = await InProcessCli.InvokeAsync("compare", "label:steady", "label:steady", "--results", results);
        Assert.DoesNotContain("window:", held.Output, StringComparison.Ordinal);
    }

    /// <summary>Seconds of a server pinned on CPU 0 and a load on CPU 1: each its rate, the server's user and kernel shares of the machine, and more.</summary>
    private static List<RunSample> Seconds(int count, double rate, double user, double kernel, params (string Name, double Value)[] more) =>
        [.. Enumerable.Range(0, count).Select(i =>
        {
            var sample = new RunSample { Time = i };
            sample.Values["load/rate"] = rate;
            sample.Values["benchmarks/cpu/user"] = user;
            sample.Values["benchmarks/cpu/kernel"] = kernel;
            foreach (var (name, value) in more)
            {
                sample.Values[name] = value;
            }

            return sample;
        })];

    private static readonly (string, double)[] s_runtime =
        [("runtime/gc/pause", 1), ("runtime-counter/threadpool-thread-count", 2), ("runtime-counter/monitor-lock-contention-count", 0)];

    [Fact]
    public void Two_sides_within_a_few_percent_or_a_side_that_served_nothing_have_nothing_to_explain()
    {
        var run = SamplePinned();
        Assert.Null(DriftRule.Explain(run, Seconds(5, 100_000, 40, 10), Seconds(5, 95_000, 40, 10), "a", "b"));

        // Nothing served on the slower side is a stall, the steadiness rule's to say: no cost per request to divide.
        Assert.Null(DriftRule.Explain(run, Seconds(5, 100_000, 40, 10, s_runtime), Seconds(5, 0, 40, 10, s_runtime), "a", "b"));
    }

    [Fact]
    public void The_loads_full_cpus_the_gcs_growth_and_the_hypervisor_are_each_named_with_their_figures()
    {
        var run = SamplePinned();
        // The server's use fell, its CPUs partly idle, the load's CPU full (the machine's idle is the server's CPU's half of it).
        var load = DriftRule.Explain(run, Seconds(5, 100_000, 40, 10, ("machine/cpu/idle", 0), ("machine/server-cpus/idle", 0)),
            Seconds(5, 60_000, 25, 5, ("machine/cpu/idle", 10), ("machine/server-cpus/idle", 20), ("load/cpu/user", 30), ("load/cpu/kernel", 19)), "a", "b");
        Assert.Equal("load", load?.Kind);
        Assert.Contains("the load's CPUs were full (100% busy, 98% of them the load's own", load!.Text, StringComparison.Ordinal);

        var gc = DriftRule.Explain(run, Seconds(5, 100_000, 40, 10, s_runtime), Seconds(5, 70_000, 40, 10, ("runtime/gc/pause", 12)), "a", "b");
        Assert.Equal("gc-growth", gc?.Kind);
        Assert.Contains("the GC paused the server 12% of the time against 1%", gc!.Text, StringComparison.Ordinal);

        var steal = DriftRule.Explain(run, Seconds(5, 100_000, 40, 10, ("machine/cpu/steal", 0)), Seconds(5, 70_000, 40, 10, ("machine/cpu/steal", 15)),
            "a", "b");
        Assert.Equal("noisy", steal?.Kind);
    }

    [Fact]
    public void Without_runtime_figures_or_with_them_moving_the_machines_speed_is_only_unclear_and_a_compiling_jit_keeps_the_warm_ups_advice()
    {
        var run = SamplePinned();
        var bare = DriftRule.Explain(run, Seconds(5, 100_000, 40, 10), Seconds(5, 70_000, 40, 10), "a", "b");
        Assert.Equal(("machine-speed", VerdictCause.Unclear), (bare?.Kind, bare?.Certainty));

        var threads = DriftRule.Explain(run, Seconds(5, 100_000, 40, 10, s_runtime),
            Seconds(5, 70_000, 40, 10, ("runtime/gc/pause", 1), ("runtime-counter/threadpool-thread-count", 9)), "a", "b");
        Assert.Equal(("drift-unexplained", VerdictCause.Unclear), (threads?.Kind, threads?.Certainty));
        Assert.StartsWith("b served 30% less than a (70,000/s against 100,000/s): unclear: ", threads!.Text, StringComparison.Ordinal);

        Assert.Null(DriftRule.Explain(run, Seconds(5, 100_000, 40, 10, s_runtime), Seconds(5, 70_000, 40, 10, s_runtime), "a", "b", compiling: true));
    }

    private static RunDocument SamplePinned() => SampleRuns.Pinned();
}

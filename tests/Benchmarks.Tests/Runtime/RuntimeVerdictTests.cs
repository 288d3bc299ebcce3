using System.Diagnostics;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runtime;

/// <summary>
/// The runtime's counters turned into per-second figures, per-request costs and the verdict that
/// names the GC, thread-pool starvation or lock contention, on figures measured from the test
/// plugins' fault scenarios on Kestrel (one CPU for the server, two for the contended one).
/// </summary>
public sealed class RuntimeVerdictTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Two_snapshots_give_increments_per_second_last_values_and_the_share_of_time_paused()
    {
        var start = Snapshot(0,
            totals: new() { ["runtime-counter/alloc-rate"] = 1_000_000, ["runtime-counter/gen-0-gc-count"] = 10,
                ["runtime-counter/total-pause-time-by-gc"] = 100 },
            gauges: new() { ["runtime-counter/threadpool-thread-count"] = 2 });
        var end = Snapshot(2,
            totals: new() { ["runtime-counter/alloc-rate"] = 5_000_000, ["runtime-counter/gen-0-gc-count"] = 16,
                ["runtime-counter/total-pause-time-by-gc"] = 500, ["kestrel-counter/total-connections"] = 64 },
            gauges: new() { ["runtime-counter/threadpool-thread-count"] = 5 });

        var values = MetricsDelta.Between(start, end, cores: 2, linkSpeedMbps: null);

        Assert.Equal(2_000_000, values["runtime-counter/alloc-rate"], 3);
        Assert.Equal(3, values["runtime-counter/gen-0-gc-count"], 3);
        Assert.Equal(200, values["runtime-counter/total-pause-time-by-gc"], 3);
        Assert.Equal(20, values["runtime/gc/pause"], 3);
        Assert.Equal(5, values["runtime-counter/threadpool-thread-count"]);

        // A counter first reported inside the interval counts from 0.
        Assert.Equal(32, values["kestrel-counter/total-connections"], 3);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Per_request_costs_divide_the_server_by_the_load_over_the_same_seconds()
    {
        var m = new Dictionary<string, double>
        {
            ["http/rps/mean"] = 10_000,
            ["runtime-counter/alloc-rate"] = 8_000_000,
            ["runtime-counter/gen-0-gc-count"] = 5,
            ["runtime-counter/threadpool-completed-items-count"] = 12_000,
            ["benchmarks/cpu/mean"] = 50,
            ["benchmarks/working-set"] = 120,
        };
        PerRequestCosts.Add(m, cores: 2, connections: 256);
        Assert.Equal(800, m["runtime/allocated-per-request"], 6);

        // What ranks stacks: a CPU's worth of the server (half of 2 cores) bought 10,000 req/s; 120 MB for 256 connections.
        Assert.Equal(10_000, m["benchmarks/efficiency/rate-per-cpu"], 6);
        Assert.Equal(468.75, m["benchmarks/efficiency/working-set-per-1k-connections"], 6);
        Assert.Equal(0.5, m["runtime/gcs-per-1k-requests"], 6);
        Assert.Equal(1.2, m["runtime/work-items-per-request"], 6);
        Assert.Equal(100, m["benchmarks/cpu-per-request"], 6);

        // A cost per request does not add up across the machines of a role: crank averages it.
        Assert.All(
            new[] { RuntimeMeasures.AllocatedPerRequest, RuntimeMeasures.GcsPer1kRequests, RuntimeMeasures.WorkItemsPerRequest, RuntimeMeasures.CpuPerRequest },
            c => Assert.Equal(Benchmarks.Host.Measurements.Operation.Avg, c.Reduce));

        // No rate, no cost: a run that answered nothing is not charged an infinity.
        var none = new Dictionary<string, double> { ["http/rps/mean"] = 0, ["runtime-counter/alloc-rate"] = 1 };
        PerRequestCosts.Add(none, cores: 2);
        Assert.False(none.ContainsKey("runtime/allocated-per-request"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void An_allocating_server_is_held_back_by_the_gc()
    {
        // 'run allocating --server kestrel': 96 KB per request, on the large object heap.
        var run = Run(rps: 8_998, pause: 43.4, allocated: 93_395, gen2: 263.6, contentions: 0, threads: [2, 2, 4, 4]);
        var gc = Assert.Single(RuntimeRule.Judge(run));
        Assert.Equal(("gc", "the GC: paused the server 43.4% of the window, 91.2 KB allocated per request, 263.6 gen-2 collections a second"),
            (gc.Kind, gc.Text));
        Assert.Equal(43.4, gc.Evidence[RuntimeMeasures.GcPause.Name]);

        RunVerdicts.Judge(run);
        Assert.EndsWith("; inside the runtime: the GC: paused the server 43.4% of the window, 91.2 KB allocated per request, 263.6 gen-2 collections a second",
            run.Bottleneck, StringComparison.Ordinal);
        Assert.Equal(["server-cpu", "gc"], run.Causes.Select(c => c.Kind));

        // The README's main job on stock Kestrel: 820 B a request at 300k req/s paused it 9.8-10.9% of the window. A cost
        // worth saying, but its CPU was the limit: the GC is named "unclear", not as what held it back.
        run = Run(rps: 306_683, pause: 10.9, allocated: 824, gen2: 0, contentions: 0, threads: [6, 2, 2, 2]);
        var cost = Assert.Single(RuntimeRule.Judge(run));
        Assert.Equal(("gc", VerdictCause.Unclear), (cost.Kind, cost.Certainty));
        Assert.Equal("unclear: the GC paused the server 10.9% of the window, 824 B allocated per request (a cost; under 25% it is not named the limit)",
            cost.Text);
        Assert.Empty(RuntimeRule.Judge(Run(rps: 306_683, pause: 9.9, allocated: 824, gen2: 0, contentions: 0, threads: [6, 2, 2, 2])));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_pool_the_runtime_raised_for_starvation_or_blocked_waits_is_starved()
    {
        // 'run blocking --server kestrel -c 8': a request waits on a task synchronously; the runtime says why it adds threads.
        var run = Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0.5, threads: [2, 9, 11, 12, 12], queue: [40, 120, 7, 3, 1],
            starved: [4, 2, 1, 0, 0], blocked: [3, 2, 0, 1, 0]);
        var starvation = Assert.Single(RuntimeRule.Judge(run));
        Assert.Equal("thread-pool-starvation", starvation.Kind);
        Assert.Equal(
            "thread-pool starvation: in the window the pool raised its threads 6 times because work waited with no thread free (requests hold pool threads " +
            "while they wait: sync over async), holding a median of 12 against its minimum of 1 (the processors its runtime saw)",
            starvation.Text);
        Assert.Equal((3, 3, 11.5),
            (starvation.Evidence[RuntimeMeasures.StarvationAdjustments.Name], starvation.Evidence[RuntimeMeasures.BlockingAdjustments.Name],
             starvation.Evidence["threadpool/threads/median"]));

        // When most of the threads were added for waits the runtime knows of (Task.Wait, .Result), that is the reason given.
        run = Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0.5, threads: [2, 9, 11, 12, 12], starved: [0, 0, 1, 0, 0],
            blocked: [3, 2, 3, 1, 0]);
        Assert.Contains("raised its threads 7 times because pool threads blocked in waits (sync over async: Task.Wait, .Result)",
            Assert.Single(RuntimeRule.Judge(run)).Text, StringComparison.Ordinal);

        // 'run blocking --server kestrel -c 8', as measured: the pool was raised in the warm-up for blocked waits and then
        // had threads enough for them, so the window has no adjustment; it still holds 14-17 threads on 1 CPU.
        run = Run(rps: 1_936, pause: 0, allocated: 900, gen2: 0, contentions: 122, threads: [8, 17, 16, 16, 15, 15, 14, 14, 14],
            starved: [0, 0, 0, 0, 0, 0, 0, 0, 0], blocked: [2_300, 0, 0, 0, 0, 0, 0, 0, 0]);
        Assert.Equal(
            "thread-pool starvation: the pool raised its threads 2,300 times because pool threads blocked in waits (sync over async: Task.Wait, .Result), " +
            "and held a median of 15 through the window against its minimum of 1 (the processors its runtime saw)",
            RuntimeRule.Judge(run).Single(c => c.Kind == "thread-pool-starvation").Text);

        // The same beside a busy machine: it held 9 against 2, under the margin start-up's starvation needs; blocked waits need none.
        run = Run(rps: 1_900, pause: 0, allocated: 900, gen2: 0, contentions: 255, threads: [8, 9, 9, 9, 9], starved: [0, 0, 0, 0, 0],
            blocked: [40, 0, 0, 0, 0]);
        run.Measurements[LimitMeasures.Processors.Name] = 2;
        Assert.Equal(["thread-pool-starvation", "lock-contention"], RuntimeRule.Judge(run).Select(c => c.Kind));

        // Start-up's starvation with the same threads is not the stack's: a margin of 8 above the minimum is.
        run = Run(rps: 1_900, pause: 0, allocated: 900, gen2: 0, contentions: 0.5, threads: [8, 9, 9, 9, 9], starved: [40, 0, 0, 0, 0],
            blocked: [0, 0, 0, 0, 0]);
        run.Measurements[LimitMeasures.Processors.Name] = 2;
        Assert.Empty(RuntimeRule.Judge(run));

        // The pool's minimum is what its runtime saw: 4 processors, and a pool held at 4 is not starved whatever it added.
        run = Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0.5, threads: [2, 4, 4, 4, 4], starved: [0, 1, 1, 1, 0]);
        run.Measurements[LimitMeasures.Processors.Name] = 4;
        Assert.Empty(RuntimeRule.Judge(run));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Start_up_injection_and_hill_climbing_are_not_starvation()
    {
        // The README's main job on stock Kestrel: the pool had 10 threads in the first warm-up second (JIT at start-up) and
        // fell to 3-6 in the window, with work items queued (Kestrel queues every request's work), and added none in it.
        var run = Run(rps: 380_000, pause: 0.2, allocated: 20, gen2: 0, contentions: 0.4, threads: [10, 6, 5, 4, 3, 3], queue: [232, 120, 80, 90, 100, 110],
            starved: [6, 0, 0, 0, 0, 0]);
        Assert.Empty(RuntimeRule.Judge(run));

        // Unpinned, a loaded Kestrel's pool climbs to 11 threads on 2 CPUs by hill climbing: no adjustment for a wait.
        run = Run(rps: 150_000, pause: 0.2, allocated: 20, gen2: 0, contentions: 0.4, threads: [11, 11, 11, 10, 11], starved: [0, 0, 0, 0, 0]);
        run.Measurements[LimitMeasures.Processors.Name] = 2;
        Assert.Empty(RuntimeRule.Judge(run));

        // One stray starvation add in a window is not the stack's behaviour.
        run = Run(rps: 150_000, pause: 0.2, allocated: 20, gen2: 0, contentions: 0.4, threads: [4, 5, 5, 5, 5], starved: [0, 1, 0, 0, 0]);
        Assert.Empty(RuntimeRule.Judge(run));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Without_the_pools_reasons_a_pool_held_high_is_only_unclear()
    {
        // A document stored before the pool's adjustments were read: the count alone cannot tell starvation from hill climbing.
        var run = Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0, threads: [2, 18, 19, 21, 20]);
        var unclear = Assert.Single(RuntimeRule.Judge(run));
        Assert.Equal(("thread-pool-starvation", VerdictCause.Unclear), (unclear.Kind, unclear.Certainty));
        Assert.StartsWith("unclear: thread-pool starvation? the pool held a median of 20 threads in the window against its minimum of 1", unclear.Text,
            StringComparison.Ordinal);

        // Its peak is not the evidence: the warm-up's threads are start-up's, and a window at 8 on 1 CPU says nothing.
        Assert.Empty(RuntimeRule.Judge(Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0, threads: [30, 8, 8, 8])));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_starved_pool_that_left_the_cpus_idle_leads_the_verdict_without_the_advice_to_load_harder()
    {
        // 'run blocking --server kestrel' at 64 connections: every pool thread waits, the server's CPU is idle.
        var run = Run(rps: 300, pause: 0, allocated: 0, gen2: 0, contentions: 0, threads: [8, 14, 22, 36], queue: [12, 80, 169], starved: [0, 6, 8, 8]);
        run.Measurements["benchmarks/cpu/mean"] = 3.5;
        run.Measurements["benchmarks/cpu/user"] = 3;
        run.Measurements["benchmarks/cpu/kernel"] = 0.5;
        run.Measurements["machine/cpu/idle"] = 94;
        RunVerdicts.Judge(run);
        Assert.StartsWith("inside the runtime: thread-pool starvation: in the window the pool raised its threads 22 times", run.Bottleneck,
            StringComparison.Ordinal);
        Assert.Contains("; nothing saturated: server 7% of its CPU", run.Bottleneck, StringComparison.Ordinal);
        Assert.DoesNotContain("more connections", run.Bottleneck, StringComparison.Ordinal);
        Assert.Equal(["nothing-saturated", "thread-pool-starvation"], run.Causes.Select(c => c.Kind));
        Assert.Null(run.Causes[1].Advice);
        Assert.Equal(BottleneckRule.ConcurrencyAdvice, run.Causes[0].Advice);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_window_in_which_nothing_completed_is_empty_not_steady()
    {
        var window = SteadinessRule.Check("load/rate", [0, 0, 0, 0, 0]);
        Assert.Equal("empty", window.Verdict);
        Assert.Equal("window: EMPTY: load/rate was 0 in each of its 5 s: the server answered nothing", WindowText.Describe(window));
        Assert.Equal("steady", SteadinessRule.Check("load/rate", [100, 101, 99, 100, 100]).Verdict);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_window_says_whether_the_servers_jit_was_still_compiling_and_advises_by_it()
    {
        // Kestrel over TLS, measured: a step from 30.5k to 26.6k req/s in the window's last seconds, the JIT quiet.
        var run = new RunDocument();
        foreach (var (rate, jit) in new[] { (30_883.0, 0.8), (30_758, 0), (30_556, 0), (29_665, 0), (30_066, 0), (26_600, 0), (26_388, 0.9), (26_749, 1) })
        {
            run.Samples.Add(new RunSample { Time = run.Samples.Count + 1, Values = { ["load/rate"] = rate, ["benchmarks/jit"] = jit } });
        }

        RunVerdicts.Judge(run);
        Assert.Equal(("not steady", 0.8), (run.Window!.Verdict, run.Window.JitMilliseconds));
        Assert.EndsWith(
            "the server's JIT was quiet, so not its warm-up: something else moved the rate (the machine, the GC, the load); repeat the run (--iterations)",
            WindowText.Describe(run.Window), StringComparison.Ordinal);

        // Still compiling as the window began (a tier-up under way): that is the advice, to warm up longer.
        run.Window.JitMilliseconds = 412;
        Assert.EndsWith("the server's JIT was still compiling when it began (412 ms in its first 5 s): warm up longer (--warmup, --warmup-max)",
            WindowText.Describe(run.Window), StringComparison.Ordinal);
        run.Window.Verdict = "steady";
        Assert.EndsWith("; the server's JIT was still compiling when it began (412 ms in its first 5 s)", WindowText.Describe(run.Window),
            StringComparison.Ordinal);

        // Kestrel after a 1 s warm-up, measured: 24k, 19k ... 28k, 30k req/s, noisy at z = 1.9 but climbing while the JIT compiled: warm up longer.
        var climb = SteadinessRule.Check("load/rate", [24_000, 19_000, 19_000, 20_000, 19_000, 25_000, 28_000, 30_000]);
        climb.JitMilliseconds = 252;
        Assert.Equal("noisy", climb.Verdict);
        var line = WindowText.Describe(climb);
        Assert.EndsWith("the server's JIT was still compiling when it began (252 ms in its first 5 s): warm up longer (--warmup, --warmup-max)", line,
            StringComparison.Ordinal);
        Assert.DoesNotContain("repeat the run", line, StringComparison.Ordinal);

        // The same noise with the JIT quiet: repeat the run.
        climb.JitMilliseconds = 3;
        Assert.EndsWith("repeat the run (--iterations) before trusting one figure", WindowText.Describe(climb), StringComparison.Ordinal);

        // The README's main job, measured: a warm-up that held 285-302k req/s, then a window flat at 215-253k after a late
        // recompilation. Steady, but not where the server had been: said, with the figures.
        run = new RunDocument();
        foreach (var rate in new[] { 207_484.0, 262_522, 316_079, 281_630, 310_586, 272_643, 308_753, 298_493, 311_255, 289_867, 296_394, 302_420, 293_140,
            289_055, 285_222, 284_907 })
        {
            run.WarmupSamples.Add(new RunSample { Time = run.WarmupSamples.Count + 1, Values = { ["load/rate"] = rate } });
        }

        foreach (var rate in new[] { 218_385.0, 231_934, 215_290, 253_185, 226_459, 231_971, 226_708, 238_985, 230_219, 235_779 })
        {
            run.Samples.Add(new RunSample { Time = run.Samples.Count + 1, Values = { ["load/rate"] = rate, ["benchmarks/jit"] = 0 } });
        }

        RunVerdicts.Judge(run);
        Assert.Equal("steady", run.Window!.Verdict);
        Assert.EndsWith(
            "; but 24% below the level the warm-up held (303,623/s): the server fell from where it had been (a late JIT change, the machine); " +
            "repeat the run (--iterations)",
            WindowText.Describe(run.Window), StringComparison.Ordinal);

        // A server that reports no JIT (not .NET): the advice as before.
        run.Window.Verdict = "not steady";
        run.Window.JitMilliseconds = null;
        run.Window.FromWarmupPercent = null;
        Assert.EndsWith("; warm up longer (--warmup) or repeat the run", WindowText.Describe(run.Window), StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Contended_locks_are_named_with_their_rate_and_share_of_requests()
    {
        // 'run contended --server kestrel --server-cpus 0-1 --load-cpus 0-1'.
        var run = Run(rps: 11_679, pause: 0.2, allocated: 866, gen2: 0, contentions: 678.7, threads: [3, 4, 4]);
        Assert.Equal(["lock contention: 679 contentions a second (0.058 per request)"], RuntimeRule.Judge(run).Select(c => c.Text));

        // The same rate spread over ten times the requests is noise of a busy server, not its limit.
        run.Measurements["http/rps/mean"] = 116_790;
        Assert.Empty(RuntimeRule.Judge(run));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Exceptions_on_the_request_path_are_a_cost_said_as_unclear_and_rare_ones_are_nothing()
    {
        // 'run throwing --server kestrel' (a throw and catch per request): 21,934 a second at 22,131 req/s.
        var run = Run(rps: 22_131, pause: 0.9, allocated: 1_044, gen2: 0, contentions: 0.4, threads: [3, 3, 3]);
        run.Measurements[RuntimeMeasures.Exceptions.Name] = 21_934;
        var cause = Assert.Single(RuntimeRule.Judge(run));
        Assert.Equal(("exceptions", "unclear"), (cause.Kind, cause.Certainty));
        Assert.Equal("unclear: exceptions: 21,934 thrown a second (0.99 per request), a cost not shown to be the limit", cause.Text);
        Assert.Equal(0.99, cause.Evidence["exceptions-per-request"], 2);

        // A few a second, or one in a hundred requests: nothing.
        run.Measurements[RuntimeMeasures.Exceptions.Name] = 50;
        Assert.Empty(RuntimeRule.Judge(run));
        run.Measurements[RuntimeMeasures.Exceptions.Name] = 221;
        Assert.Empty(RuntimeRule.Judge(run));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_plain_server_has_no_runtime_verdict()
    {
        // 'run json --server kestrel': 822 B a request, a queue of work items but no injection, a stray contention.
        var run = Run(rps: 22_592, pause: 0.27, allocated: 822, gen2: 0, contentions: 0.6, threads: [2, 5, 7, 7], queue: [152, 30, 12], starved: [0, 0, 0, 0]);
        Assert.Empty(RuntimeRule.Judge(run));
        RunVerdicts.Judge(run);
        Assert.DoesNotContain("inside the runtime", run.Bottleneck ?? "", StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Compare_of_two_traced_runs_lists_the_methods_whose_share_moved_most()
    {
        static RunDocument Traced(params (string Name, double Self)[] methods) => new()
        {
            Trace = new RunTrace { Samples = 1000, Seconds = 5,
                Methods = [.. methods.Select(m => new HotMethod { Name = m.Name, ExclusivePercent = m.Self, InclusivePercent = m.Self })] },
        };

        var baseline = new Benchmarks.Host.Reports.RunGroup("a", [Traced(("Spin", 34.3), ("Parse", 5), ("Enter_Slowpath", 11.9), ("Steady", 3))]);
        var candidate = new Benchmarks.Host.Reports.RunGroup("b", [Traced(("Spin", 54.7), ("Parse", 5.4), ("Steady", 3.2), ("Serve", 2.6))]);
        var shift = Benchmarks.Host.Reports.TraceShift.Of(baseline, candidate);
        Assert.Equal(["Spin", "Enter_Slowpath", "Serve"], shift.Select(s => s.Method));
        Assert.Equal((11.9, 0), (shift[1].Baseline, shift[1].Candidate));
        Assert.Contains("   34.3% →  54.7%   +20.4  Spin", Benchmarks.Host.Reports.TraceShift.Lines(baseline, candidate));

        // Without a trace on both sides there is nothing to say.
        Assert.Empty(Benchmarks.Host.Reports.TraceShift.Lines(baseline, new Benchmarks.Host.Reports.RunGroup("c", [new RunDocument()])));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Compare_says_what_limited_each_side_when_the_causes_changed()
    {
        static RunDocument Judged(params (string Kind, string Certainty)[] causes) => new()
        {
            Causes = [.. causes.Select(c => new VerdictCause { Kind = c.Kind, Text = c.Kind, Certainty = c.Certainty })],
        };

        var sure = VerdictCause.Sure;
        var baseline = new Benchmarks.Host.Reports.RunGroup("a", [Judged(("server-cpu", sure)), Judged(("server-cpu", sure), ("gc", VerdictCause.Unclear))]);
        var candidate = new Benchmarks.Host.Reports.RunGroup("b",
            [Judged(("server-cpu", sure), ("gc", sure)), Judged(("server-cpu", sure), ("gc", sure)), Judged(("server-cpu", sure))]);
        Assert.Equal(["bound: baseline server-cpu (2 of 2); candidate server-cpu + gc (2 of 3), server-cpu (1 of 3)"],
            Benchmarks.Host.Reports.CauseShift.Lines(baseline, candidate));

        // The same verdict on every run of both sides: nothing to say; nor when a side stored no causes.
        Assert.Empty(Benchmarks.Host.Reports.CauseShift.Lines(baseline, new Benchmarks.Host.Reports.RunGroup("c", [Judged(("server-cpu", sure))])));
        Assert.Empty(Benchmarks.Host.Reports.CauseShift.Lines(baseline, new Benchmarks.Host.Reports.RunGroup("d", [new RunDocument()])));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Trace_providers_are_dotnet_traces_profiles_or_a_provider_list()
    {
        Assert.Equal(["Microsoft-DotNETCore-SampleProfiler", "Microsoft-Windows-DotNETRuntime"], TraceProviders.Parse(null).Providers!.Select(p => p.Name));
        var gc = Assert.Single(TraceProviders.Parse("gc-verbose").Providers!);
        Assert.Equal((System.Diagnostics.Tracing.EventLevel.Verbose, 0x8003L), (gc.EventLevel, gc.Keywords));

        var list = TraceProviders.Parse("System.Runtime, Microsoft-Windows-DotNETRuntime:0x1:4, Custom::Error").Providers!;
        Assert.Equal(("System.Runtime", -1L, System.Diagnostics.Tracing.EventLevel.Verbose), (list[0].Name, list[0].Keywords, list[0].EventLevel));
        Assert.Equal((1L, System.Diagnostics.Tracing.EventLevel.Informational), (list[1].Keywords, list[1].EventLevel));
        Assert.Equal(System.Diagnostics.Tracing.EventLevel.Error, list[2].EventLevel);

        Assert.Equal("trace provider 'X:zz': keywords 'zz' are not a hex number", TraceProviders.Parse("X:zz").Error);
        Assert.Equal("trace provider 'X:1:9': level '9' is not 0-5 or a level name", TraceProviders.Parse("X:1:9").Error);
    }

    private static RuntimeCounterSnapshot Counters(Dictionary<string, double> totals, Dictionary<string, double> gauges) => new(totals, gauges);

    private static MetricsSnapshot Snapshot(double seconds, Dictionary<string, double> totals, Dictionary<string, double> gauges) =>
        new(s_origin + (long)(seconds * Stopwatch.Frequency), default, null, null, null) { Runtime = Counters(totals, gauges) };

    private static readonly long s_origin = Stopwatch.GetTimestamp();

    /// <summary>A run on 1 server CPU: the first second of each series is the warm-up's, the others the window's.</summary>
    private static RunDocument Run(double rps, double pause, double allocated, double gen2, double contentions, double[] threads, double[]? queue = null,
        double[]? starved = null, double[]? blocked = null)
    {
        var run = SampleRuns.Pinned();
        var m = run.Measurements;
        m["http/rps/mean"] = rps;
        m["benchmarks/cpu/mean"] = 49.5;
        m["benchmarks/cpu/user"] = 37;
        m["benchmarks/cpu/kernel"] = 12.5;
        m["machine/cpu/idle"] = 35;
        m[RuntimeMeasures.GcPause.Name] = pause;
        m[RuntimeMeasures.AllocatedPerRequest.Name] = allocated;
        m[RuntimeMeasures.Gen2.Name] = gen2;
        m[RuntimeMeasures.Contentions.Name] = contentions;
        for (var i = 0; i < threads.Length; i++)
        {
            var sample = new RunSample { Time = i + 1 };
            sample.Values[RuntimeMeasures.Threads.Name] = threads[i];
            if (queue is not null && i < queue.Length)
            {
                sample.Values[RuntimeMeasures.QueueLength.Name] = queue[i];
            }

            if (starved is not null)
            {
                sample.Values[RuntimeMeasures.StarvationAdjustments.Name] = starved[i];
                sample.Values[RuntimeMeasures.BlockingAdjustments.Name] = blocked?[i] ?? 0;
            }

            (i == 0 ? run.WarmupSamples : run.Samples).Add(sample);
        }

        return run;
    }
}

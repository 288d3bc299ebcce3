using System.Diagnostics;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;
using Benchmarks.Host.Runs;

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
        var start = Snapshot(0, totals: new() { ["runtime-counter/alloc-rate"] = 1_000_000, ["runtime-counter/gen-0-gc-count"] = 10, ["runtime-counter/total-pause-time-by-gc"] = 100 }, gauges: new() { ["runtime-counter/threadpool-thread-count"] = 2 });
        var end = Snapshot(2, totals: new() { ["runtime-counter/alloc-rate"] = 5_000_000, ["runtime-counter/gen-0-gc-count"] = 16, ["runtime-counter/total-pause-time-by-gc"] = 500, ["kestrel-counter/total-connections"] = 64 }, gauges: new() { ["runtime-counter/threadpool-thread-count"] = 5 });

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
        Assert.All(new[] { RuntimeMeasures.AllocatedPerRequest, RuntimeMeasures.GcsPer1kRequests, RuntimeMeasures.WorkItemsPerRequest, RuntimeMeasures.CpuPerRequest }, c => Assert.Equal(Benchmarks.Host.Measurements.Operation.Avg, c.Reduce));

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
        Assert.Equal("the GC: paused the server 43.4% of the window, 91.2 KB allocated per request, 263.6 gen-2 collections a second", RuntimeRule.Judge(run));

        RunVerdicts.Judge(run);
        Assert.EndsWith("; inside the runtime: the GC: paused the server 43.4% of the window, 91.2 KB allocated per request, 263.6 gen-2 collections a second", run.Bottleneck, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_pool_that_injects_threads_is_starved()
    {
        // 'run blocking --server kestrel -c 8': a request waits on a task synchronously.
        var run = Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0.5, threads: [2, 6, 11, 15, 20], queue: [40, 120, 7, 3, 1]);
        Assert.Equal("thread-pool starvation: the pool grew to 20 threads on 1 CPU, from 2 in its lowest second, with up to 120 work items queued (requests hold pool threads while they wait: sync over async)", RuntimeRule.Judge(run));

        // The pool injects for a blocking wait within its first second: a counter session whose first report came later sees
        // it grown already, and the peak above the CPUs (the pool's default minimum) is the evidence.
        run = Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 185, threads: [18, 18, 18, 21]);
        Assert.StartsWith("thread-pool starvation: the pool grew to 21 threads on 1 CPU, from 18 in its lowest second (requests", RuntimeRule.Judge(run), StringComparison.Ordinal);
        run = Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0, threads: [19, 19]);
        Assert.Equal("thread-pool starvation: the pool grew to 19 threads on 1 CPU (requests hold pool threads while they wait: sync over async)", RuntimeRule.Judge(run));

        // Eight above the CPUs is the line: a pool of 8 on 1 CPU is not starved.
        Assert.Null(RuntimeRule.Judge(Run(rps: 1_558, pause: 0, allocated: 900, gen2: 0, contentions: 0, threads: [2, 8, 8])));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_starved_pool_that_left_the_cpus_idle_leads_the_verdict_without_the_advice_to_load_harder()
    {
        // 'run blocking --server kestrel' at 64 connections: every pool thread waits, nothing completes, the server's CPU is idle.
        var run = Run(rps: 0, pause: 0, allocated: 0, gen2: 0, contentions: 0, threads: [8, 14, 22, 36], queue: [12, 80, 169]);
        run.Measurements["benchmarks/cpu/mean"] = 3.5;
        run.Measurements["benchmarks/cpu/user"] = 3;
        run.Measurements["benchmarks/cpu/kernel"] = 0.5;
        run.Measurements["machine/cpu/idle"] = 94;
        RunVerdicts.Judge(run);
        Assert.StartsWith("inside the runtime: thread-pool starvation: the pool grew to 36 threads on 1 CPU, from 8 in its lowest second, with up to 169 work items queued", run.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("; nothing saturated: server 7% of its CPU", run.Bottleneck, StringComparison.Ordinal);
        Assert.DoesNotContain("more connections", run.Bottleneck, StringComparison.Ordinal);
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
    public void Contended_locks_are_named_with_their_rate_and_share_of_requests()
    {
        // 'run contended --server kestrel --server-cpus 0-1 --load-cpus 0-1'.
        var run = Run(rps: 11_679, pause: 0.2, allocated: 866, gen2: 0, contentions: 678.7, threads: [3, 4, 4]);
        Assert.Equal("lock contention: 679 contentions a second (0.058 per request)", RuntimeRule.Judge(run));

        // The same rate spread over ten times the requests is noise of a busy server, not its limit.
        run.Measurements["http/rps/mean"] = 116_790;
        Assert.Null(RuntimeRule.Judge(run));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_plain_server_has_no_runtime_verdict()
    {
        // 'run json --server kestrel': 822 B a request, a queue of work items but no injection, a stray contention.
        var run = Run(rps: 22_592, pause: 0.27, allocated: 822, gen2: 0, contentions: 0.6, threads: [2, 5, 7, 7], queue: [152, 30, 12]);
        Assert.Null(RuntimeRule.Judge(run));
        RunVerdicts.Judge(run);
        Assert.DoesNotContain("inside the runtime", run.Bottleneck ?? "", StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Compare_of_two_traced_runs_lists_the_methods_whose_share_moved_most()
    {
        static RunDocument Traced(params (string Name, double Self)[] methods) => new()
        {
            Trace = new RunTrace { Samples = 1000, Seconds = 5, Methods = [.. methods.Select(m => new HotMethod { Name = m.Name, ExclusivePercent = m.Self, InclusivePercent = m.Self })] },
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

    private static RunDocument Run(double rps, double pause, double allocated, double gen2, double contentions, double[] threads, double[]? queue = null)
    {
        var run = new RunDocument { Environment = new RunEnvironment { Cores = 2 } };
        run.Parameters["server-cpus"] = "0";
        run.Parameters["load-cpus"] = "1";
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

            (i == 0 ? run.WarmupSamples : run.Samples).Add(sample);
        }

        return run;
    }
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runtime;

/// <summary>
/// Real runs of the test plugins' fault scenarios on Kestrel, the server's runtime counters read
/// over EventPipe: each fault yields its verdict with its figures, and the same greeting without
/// the fault yields none. Nothing here is a speed: what it checks holds on a busy machine, so it
/// runs beside the other parallel tests rather than in the serial measuring tier.
/// </summary>
public sealed class RuntimeCounterRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    /// <summary>A run of the test plugin's scenario on Kestrel: 3 s measured after a 1 s warm-up unless <paramref name="more"/> says otherwise.</summary>
    private static string[] Run(string results, string scenario, params string[] more) =>
        ["run", scenario, "--server", "kestrel", "--plugins", TestPaths.SamplePluginDirectory, "--no-verify", "--results", results,
            .. more.Contains("-d") ? Array.Empty<string>() : ["-d", "3s"], .. more.Contains("-w") ? Array.Empty<string>() : ["-w", "1s"], .. more];

    [Fact]
    public async Task Each_fault_inside_the_runtime_is_named_and_a_clean_server_has_no_such_verdict()
    {
        // 96 KB per request on the large object heap: the GC.
        var results = TestPaths.NewTempDirectory();
        var allocating = await HostRun.StartAsync(results, s_timeout, Run(results, "allocating"));
        Assert.True(allocating.ExitCode == 0, allocating.ToString());
        var run = StoredRuns.Single(results);
        // About 96 KB: the second's increments are timed to a quarter second, so a 3 s window reads within about 8% of it.
        Assert.InRange(run.Measurements["runtime/allocated-per-request"], 88 * 1024, 112 * 1024);
        Assert.True(run.Measurements["runtime-counter/gen-2-gc-count"] > 0, "the large object heap is collected with gen 2");
        Assert.Contains("inside the runtime: the GC: paused the server ", run.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("per request: ", allocating.Output, StringComparison.Ordinal);

        // Every second carries the counters, the warm-up's too, under crank's names.
        Assert.All(run.Samples, s => Assert.True(s.Values.ContainsKey("runtime-counter/alloc-rate"), $"second {s.Time} has no allocation rate"));
        Assert.Contains(run.WarmupSamples, s => s.Values.ContainsKey("runtime-counter/threadpool-thread-count"));

        // A request that waits on a task synchronously: the pool injects threads.
        results = TestPaths.NewTempDirectory();
        var blocking = await HostRun.StartAsync(results, s_timeout, Run(results, "blocking", "-c", "8", "-w", "2s"));
        Assert.True(blocking.ExitCode == 0, blocking.ToString());
        Assert.Contains("inside the runtime: thread-pool starvation: the pool grew from ", StoredRuns.Single(results).Bottleneck, StringComparison.Ordinal);

        // The greeting alone: a few hundred bytes a request, no runtime verdict; traced for a second of its window.
        results = TestPaths.NewTempDirectory();
        var clean = await HostRun.StartAsync(results, s_timeout, Run(results, "greeting", "-d", "2s", "--trace-seconds", "1s"));
        Assert.True(clean.ExitCode == 0, clean.ToString());
        run = StoredRuns.Single(results);
        Assert.InRange(run.Measurements["runtime/allocated-per-request"], 1, 4096);
        Assert.DoesNotContain("inside the runtime", run.Bottleneck ?? "", StringComparison.Ordinal);

        // The trace: stored beside the run under its name, its samples read into the hot methods, printed.
        var trace = run.Trace!;
        Assert.True(trace.Samples > 0, "no managed samples in the trace");
        Assert.Equal(1, trace.Seconds);
        var stored = Directory.GetFiles(results, "*.json").Single(f => Path.GetFileName(f) != Benchmarks.Host.Store.JsonFileRunStore.IndexFileName);
        Assert.Equal(Path.GetFileName(Path.ChangeExtension(stored, ".nettrace")), trace.File);
        Assert.True(new FileInfo(Path.Combine(results, trace.File)).Length > 10_000, "the trace file is missing or empty");
        Assert.InRange(trace.Methods.Sum(m => m.ExclusivePercent), 1, 100.001);
        Assert.All(trace.Methods, m => Assert.True(m.InclusivePercent >= m.ExclusivePercent - 1e-9, m.Name));
        Assert.Contains("trace: ", clean.Output, StringComparison.Ordinal);

        // Without counters: none of it, and no verdict from it.
        results = TestPaths.NewTempDirectory();
        var off = await HostRun.StartAsync(results, s_timeout, Run(results, "allocating", "--no-counters", "-d", "1s"));
        Assert.True(off.ExitCode == 0, off.ToString());
        run = StoredRuns.Single(results);
        Assert.DoesNotContain(run.Measurements.Keys, k => k.StartsWith("runtime", StringComparison.Ordinal));
        Assert.DoesNotContain("inside the runtime", run.Bottleneck ?? "", StringComparison.Ordinal);
    }
}

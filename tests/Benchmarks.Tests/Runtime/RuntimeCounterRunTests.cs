using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runtime;

/// <summary>
/// Real runs of the test plugins' fault scenarios on Kestrel, the server's runtime counters read
/// over EventPipe: each fault yields its verdict with its figures, and the same greeting without
/// the fault yields none. Nothing here is a speed, but the verdicts read the machine: with the
/// machine 100% busy beside other tests, a blocking server's thread-pool starvation was judged "the
/// machine" instead, so it runs in the serial measuring tier.
/// </summary>
[Collection(Measuring.Name)]
public sealed class RuntimeCounterRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    /// <summary>A run of the test plugin's scenario on Kestrel: 3 s measured after a 1 s warm-up unless <paramref name="more"/> says otherwise.</summary>
    private static string[] Run(string results, string scenario, params string[] more) =>
        ["run", scenario, "--server", "kestrel", "--plugins", TestPaths.SamplePluginDirectory, "--no-verify", "--results", results,
            .. more.Contains("-d") ? Array.Empty<string>() : ["-d", "3s"], .. more.Contains("-w") ? Array.Empty<string>() : ["-w", "1s"], .. more];

    [MeasuredFact]
    public async Task Each_fault_inside_the_runtime_is_named_and_a_clean_server_has_no_such_verdict()
    {
        // 96 KB per request on the large object heap: the GC.
        var results = TestPaths.NewTempDirectory();
        var allocating = await HostRun.StartAsync(results, s_timeout, Run(results, "allocating", "-d", "4s", "-w", "2s"));
        Assert.True(allocating.ExitCode == 0, allocating.ToString());
        var run = StoredRuns.Single(results);
        // About 96 KB: a second's increments are those that reached the tool within it, four reports a second, so on a busy
        // machine a report late across each edge of a 4 s window moves it by up to a sixteenth each way.
        var perRequest = run.Measurements["runtime/allocated-per-request"];
        Assert.True(perRequest is > 80 * 1024 and < 116 * 1024, $"{perRequest / 1024:0.0} KB per request, seconds: {PerSecond(run)}");
        Assert.True(run.Measurements["runtime-counter/gen-2-gc-count"] > 0, "the large object heap is collected with gen 2");
        Assert.Contains("inside the runtime: the GC: paused the server ", run.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("per request: ", allocating.Output, StringComparison.Ordinal);

        // Every second carries the counters, the warm-up's too, under crank's names (a 2 s warm-up: the session opens beside
        // the run, and on a busy machine its first report may come after a 1 s warm-up's one second).
        Assert.All(run.Samples, s => Assert.True(s.Values.ContainsKey("runtime-counter/alloc-rate"), $"second {s.Time} has no allocation rate"));
        Assert.Contains(run.WarmupSamples, s => s.Values.ContainsKey("runtime-counter/threadpool-thread-count"));

        // A request that waits on a task synchronously: the runtime raises the pool for the blocked waits, and says so.
        results = TestPaths.NewTempDirectory();
        var blocking = await HostRun.StartAsync(results, s_timeout, Run(results, "blocking", "-c", "8", "-w", "2s"));
        Assert.True(blocking.ExitCode == 0, blocking.ToString());
        run = StoredRuns.Single(results);
        Assert.Contains("inside the runtime: thread-pool starvation: ", run.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("because pool threads blocked in waits", run.Bottleneck, StringComparison.Ordinal);
        var starvation = Assert.Single(run.Causes, c => c.Kind == "thread-pool-starvation");
        Assert.True(starvation.Evidence["runtime/threadpool/blocking-adjustments"] + starvation.Evidence["threadpool/warmup/blocking-adjustments"] > 0,
            string.Join(", ", starvation.Evidence));

        // The greeting alone: a few hundred bytes a request, no runtime verdict; traced for a second of its window.
        results = TestPaths.NewTempDirectory();
        var clean = await HostRun.StartAsync(results, s_timeout, Run(results, "greeting", "-d", "2s", "--trace-seconds", "1s"));
        Assert.True(clean.ExitCode == 0, clean.ToString());
        run = StoredRuns.Single(results);
        perRequest = run.Measurements["runtime/allocated-per-request"];
        Assert.True(perRequest is >= 1 and <= 4096, $"{perRequest:0} B per request, seconds: {PerSecond(run)}");
        Assert.DoesNotContain("inside the runtime", run.Bottleneck ?? "", StringComparison.Ordinal);

        // Kestrel's meter holds the load's 8 connections open, none queued; the EventCounter sources that cost a request are not read.
        Assert.InRange(run.Measurements["kestrel-meter/active-connections"], 8, 10);
        Assert.Equal(0, run.Measurements["kestrel-meter/queued-connections"]);
        Assert.Equal("Connections open in Kestrel (its meter's kestrel.active_connections, every endpoint), largest second",
            run.Metadata["kestrel-meter/active-connections"].Description);
        Assert.DoesNotContain(run.Measurements.Keys,
            k => k.StartsWith("aspnet-counter/", StringComparison.Ordinal) || k.StartsWith("sockets-counter/", StringComparison.Ordinal));

        // The trace: stored beside the run under its name, its samples read into the hot methods, printed.
        var trace = run.Trace!;
        Assert.True(trace.Samples > 0, "no managed samples in the trace");
        Assert.Equal(1, trace.Seconds);
        var stored = Directory.GetFiles(results, "*.json").Single(f => Path.GetFileName(f) != Benchmarks.Host.Store.JsonFileRunStore.IndexFileName);
        Assert.Equal(Path.GetFileName(Path.ChangeExtension(stored, ".nettrace")), trace.File);
        Assert.True(new FileInfo(Path.Combine(results, trace.File)).Length > 10_000, "the trace file is missing or empty");
        var share = trace.Methods.Sum(m => m.ExclusivePercent);
        Assert.True(share is >= 1 and <= 100.001,
            $"the hot methods hold {share}% of {trace.Samples} samples: {string.Join(", ", trace.Methods.Select(m => $"{m.Name} {m.ExclusivePercent:0.#}%"))}");
        Assert.All(trace.Methods, m => Assert.True(m.InclusivePercent >= m.ExclusivePercent - 1e-9, m.Name));
        Assert.Contains("trace: ", clean.Output, StringComparison.Ordinal);

        // Waits are set apart from the work: no wait frame among the methods, every set-apart frame a wait, and the two add up to at most every sample.
        Assert.DoesNotContain(trace.Methods, m => Benchmarks.Host.Metrics.WaitFrames.IsWait(m.Name));
        Assert.All(trace.Waits, w => Assert.True(Benchmarks.Host.Metrics.WaitFrames.IsWait(w.Name), w.Name));
        Assert.True(trace.WaitingPercent is >= 0 and <= 100 && share + trace.WaitingPercent <= 100.001, $"{share}% working, {trace.WaitingPercent}% waiting");
        Assert.True(trace.Waits.Sum(w => w.ExclusivePercent) <= trace.WaitingPercent + 0.001,
            string.Join(", ", trace.Waits.Select(w => $"{w.Name} {w.ExclusivePercent:0.#}%")));

        // One global lock whose holder spins inside it: the waits (the waiters' spins, the sockets' event thread in epoll_wait)
        // are set apart, none of them among the work. Which frames a second's samples catch varies (70 to 245 samples here),
        // so no one method is required.
        results = TestPaths.NewTempDirectory();
        var contended = await HostRun.StartAsync(results, s_timeout, Run(results, "contended", "-c", "16", "-d", "2s", "--trace-seconds", "1s"));
        Assert.True(contended.ExitCode == 0, contended.ToString());
        trace = StoredRuns.Single(results).Trace!;
        var described = $"work: {string.Join(", ", trace.Methods.Select(m => $"{m.Name} {m.ExclusivePercent:0.#}%"))}; waiting {trace.WaitingPercent:0.#}%: " +
            $"{string.Join(", ", trace.Waits.Select(w => $"{w.Name} {w.ExclusivePercent:0.#}%"))}";
        Assert.True(trace.Methods.Count > 0 && trace.Waits.Count > 0 && trace.WaitingPercent > 0, described);
        Assert.DoesNotContain(trace.Methods, m => Benchmarks.Host.Metrics.WaitFrames.IsWait(m.Name));
        Assert.All(trace.Waits, w => Assert.True(Benchmarks.Host.Metrics.WaitFrames.IsWait(w.Name), described));

        // Without counters: none of it, and no verdict from it.
        results = TestPaths.NewTempDirectory();
        var off = await HostRun.StartAsync(results, s_timeout, Run(results, "allocating", "--no-counters", "-d", "1s"));
        Assert.True(off.ExitCode == 0, off.ToString());
        run = StoredRuns.Single(results);
        Assert.DoesNotContain(run.Measurements.Keys,
            k => k.StartsWith("runtime", StringComparison.Ordinal) || k.Contains("-counter/", StringComparison.Ordinal));
        Assert.DoesNotContain("inside the runtime", run.Bottleneck ?? "", StringComparison.Ordinal);
    }

    /// <summary>Each second's allocation rate and load rate, for a failure's message.</summary>
    private static string PerSecond(Benchmarks.Host.Documents.RunDocument run) =>
        string.Join("; ", run.Samples.Select(s => $"{s.Values.GetValueOrDefault("runtime-counter/alloc-rate") / 1e6:0} MB/s at " +
            $"{s.Values.GetValueOrDefault("load/rate"):0}/s"));
}

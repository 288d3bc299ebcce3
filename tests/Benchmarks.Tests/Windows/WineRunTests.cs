using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Windows;

/// <summary>
/// The win-x64 build's own paths under Wine: <c>verify</c> starts a server and checks it, <c>run</c>
/// stores a document whose Windows-read measurements are present and consistent (the machine's
/// parts make the whole, the server's CPU and working set are read, the names and metadata are
/// Linux's), and killing a run ends its server and load (the Job Object). Wine's socket work is done
/// by <c>wineserver</c>, another process, so magnitudes are not Windows': presence and consistency are.
/// </summary>
[Collection(Wine.Name)]
public sealed class WineRunTests(WinePrefix wine)
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Verify_starts_the_server_under_windows_and_every_check_passes()
    {
        // Kestrel here; the sockets server is verified by its run below (a run checks its server before loading it).
        var verify = await wine.BenchmarksAsync(s_timeout, "verify", "--server", "kestrel", "-s", "plaintext");
        Assert.True(verify.ExitCode == 0, verify.ToString());
        Assert.Contains("PASS", verify.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("FAIL", verify.Output, StringComparison.Ordinal);
    }

    /// <summary>The sockets server's run is also under a memory limit: a Job Object of its own, nested in the run's.</summary>
    [Theory]
    [InlineData("kestrel")]
    [InlineData("sockets", "--server-memory-limit", "256MB")]
    public async Task A_run_under_windows_stores_a_document_whose_measurements_are_read_and_add_up(string server, params string[] more)
    {
        var results = TestPaths.NewTempDirectory();
        var run = await wine.BenchmarksAsync(s_timeout,
            ["run", "plaintext", "--server", server, "-d", "2s", "-w", "1s", "-c", "16", "--results", WinePrefix.WindowsPath(results), .. more]);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("Verified: 10 TechEmpower checks passed.", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        if (more.Length > 0)
        {
            Assert.Equal("256MB", document.Parameters["server-memory-limit"]);
            Assert.Equal(0, document.Measurements["benchmarks/memory/oom-kills"]);
        }

        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.Equal("Windows", document.Environment.Os);
        var m = document.Measurements;
        Assert.True(m["http/rps/mean"] > 0 && m["http/requests/errors"] == 0, run.Output);

        // Read by the Windows code: the machine's parts make the whole; the server's CPU split adds up; its working set is a .NET process's.
        Assert.InRange(m["machine/cpu/user"] + m["machine/cpu/kernel"] + m["machine/cpu/idle"] + m["machine/cpu/steal"], 99, 101);
        Assert.Equal(m["benchmarks/cpu/mean"], m["benchmarks/cpu/user"] + m["benchmarks/cpu/kernel"], 6);
        Assert.True(m["benchmarks/working-set"] > 10, $"{m["benchmarks/working-set"]} MB");
        Assert.True(m["benchmarks/start-time"] > 0 && m["benchmarks/working-set/rest"] > 10);
        // Wine's GetProcessMemoryInfo fills the older counters and leaves PROCESS_MEMORY_COUNTERS_EX2's private working set 0:
        // the run has none, rather than another figure (the commit charge) under its name.
        Assert.DoesNotContain("benchmarks/working-set/private", m.Keys);
        Assert.DoesNotContain("benchmarks/working-set/private/rest", m.Keys);
        // Every sample read the interface's counters, and packets move with bytes. Wine's loopback
        // counters sometimes do not move at all within a short window on a loaded machine (bytes
        // as well as packets: 2 of 6 CI runs in one day), which is Wine's, not the Windows code's.
        var detail = $"{m["net/rx/packets"]} packets/s received, {m["net/tx/packets"]} sent; bytes: {m.GetValueOrDefault("net/rx")} Mbit/s received, " +
            $"{m.GetValueOrDefault("net/tx")} sent; samples with packets: {document.Samples.Count(s => s.Values.ContainsKey("net/rx/packets"))} of " +
            $"{document.Samples.Count}";
        Assert.True(document.Samples.Count > 0 && document.Samples.All(s => s.Values.ContainsKey("net/rx/packets") && s.Values.ContainsKey("net/rx")), detail);
        Assert.True(
            m["net/rx/packets"] > 0 == m.GetValueOrDefault("net/rx") > 0 && m["net/tx/packets"] > 0 == m.GetValueOrDefault("net/tx") > 0 && m["net/drops"] >= 0,
            detail);

        // The runtime counters are not read under Wine (it lacks the TDH the parser calls, and a call to it could abort the
        // process): the run says so in one line.
        Assert.Contains("note: no runtime counters from process ", run.Output, StringComparison.Ordinal);
        Assert.Contains("under Wine, whose tdh.dll", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain(m.Keys, k => k.StartsWith("runtime-counter/", StringComparison.Ordinal));

        // One meaning per name: the catalog's metadata, as on Linux, and every second sampled under the same names.
        Assert.All(MeasurementCatalog.All, c => Assert.Equal(c.Info, document.Metadata[c.Name]));
        Assert.All(document.Samples.Where(s => s.Values.ContainsKey("load/rate")), s =>
            Assert.Superset(
                new HashSet<string> { "benchmarks/cpu", "benchmarks/cpu/user", "benchmarks/cpu/kernel", "benchmarks/working-set", "machine/cpu/idle" },
                s.Values.Keys.ToHashSet()));
    }

    [Fact]
    public async Task A_native_server_from_the_self_contained_build_is_refused_in_one_line()
    {
        // The Windows build carries its runtime: its assemblies cannot be told from the framework's, so no NativeAOT program is generated from them.
        var results = TestPaths.NewTempDirectory();
        var run = await wine.BenchmarksAsync(s_timeout, "run", "plaintext", "--server", "sockets", "--publish", "aot", "--results",
            WinePrefix.WindowsPath(results));
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains("--publish aot: this build of benchmarks carries its own runtime (self-contained)", run.Output + run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_cpu_limit_that_wine_cannot_set_fails_the_run_in_one_line_before_anything_starts()
    {
        // Wine has no CPU rate control for jobs (Windows 8 and later have): the run says which part Windows refused, in one line.
        var results = TestPaths.NewTempDirectory();
        var quota = await wine.BenchmarksAsync(s_timeout, "run", "plaintext", "--server", "sockets", "--server-cpu-limit", "0.5", "-d", "2s", "-w", "1s",
            "--results", WinePrefix.WindowsPath(results));
        Assert.Equal(1, quota.ExitCode);
        Assert.Contains("error: cannot make the Job Object 'server1' for the limits: Windows refused the CPU rate control (error ", quota.Output + quota.Error,
            StringComparison.Ordinal);
        Assert.Equal(RunStatus.Failed, StoredRuns.Single(results).Status);
    }

    [Fact]
    public async Task An_httpsys_server_that_cannot_listen_fails_the_run_in_one_line_without_a_stack_trace()
    {
        // Wine's http.sys has no request queues: the start fails, as on a Windows machine without the URL reservation.
        var results = TestPaths.NewTempDirectory();
        var run = await wine.BenchmarksAsync(s_timeout, "run", "plaintext", "--server", "httpsys", "-d", "2s", "-w", "1s", "--results",
            WinePrefix.WindowsPath(results));
        Assert.Equal(1, run.ExitCode);
        var all = run.Output + run.Error;
        Assert.True(
            all.Contains("error: the server exited with code 1 before it was ready: error: httpsys cannot listen on http://127.0.0.1:",
                StringComparison.Ordinal),
            all);
        Assert.DoesNotContain("   at Microsoft.AspNetCore", all, StringComparison.Ordinal);
        Assert.DoesNotContain("HttpSysListener", all, StringComparison.Ordinal);
        Assert.StartsWith("the server exited with code 1 before it was ready", StoredRuns.Single(results).Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Killing_a_run_under_windows_ends_its_server_and_its_load()
    {
        var results = TestPaths.NewTempDirectory();
        // A start timeout past the default 30 s: under Wine, beside the parallel tier, the server's start took longer.
        using var run = wine.Start("run", "plaintext", "--server", "sockets", "-d", "60s", "-w", "1s", "-c", "8", "--no-counters", "--start-timeout", "90s",
            "--results", WinePrefix.WindowsPath(results));
        var marker = $"--results {WinePrefix.WindowsPath(results)}";
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (wine.Processes("serve --scenario plaintext").Count == 0 || wine.Processes("load --url").Count == 0)
        {
            if (run.HasExited)
            {
                Assert.Fail($"the run ended (exit {run.ExitCode}) " +
                    $"before its server and load were both seen:\n{run.StandardOutput.ReadToEnd()}\n{run.StandardError.ReadToEnd()}");
            }

            Assert.True(waited.Elapsed < TimeSpan.FromSeconds(120), "the run's server and load did not start within 120 s");
            await Task.Delay(200);
        }

        // The run itself, killed outright: no handler of its own runs, only the Job Object its children are in.
        foreach (var pid in wine.Processes(marker))
        {
            System.Diagnostics.Process.GetProcessById(pid).Kill();
        }

        waited.Restart();
        while (wine.Processes("serve --scenario plaintext").Count + wine.Processes("load --url").Count > 0 && waited.Elapsed < TimeSpan.FromSeconds(15))
        {
            await Task.Delay(200);
        }

        Assert.Empty(wine.Processes("serve --scenario plaintext"));
        Assert.Empty(wine.Processes("load --url"));
    }
}

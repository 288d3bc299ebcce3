using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run --server-cpu-limit/--server-memory-limit</c> end to end against the real kernel: the
/// server gets its quota and no more, its runtime sees one processor and 75% of the memory limit,
/// the throttling is sampled each second and named in the verdict; a server that leaks native
/// memory past its limit is killed, and the run fails with that cause; no group is left.
/// </summary>
[Collection(Measuring.Name)]
public sealed class LimitedRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [MeasuredFact]
    public async Task A_server_under_a_quarter_cpu_quota_is_throttled_and_the_verdict_names_the_quota()
    {
        Assert.True(OperatingSystem.IsLinux(), "cgroups are Linux's");
        var results = TestPaths.NewTempDirectory();
        var load = MachineLoad.Start();
        var run = await HostRun.StartAsync(results, s_timeout,
            "run", "plaintext", "--server", "sockets", "--server-cpu-limit", "0.25", "--server-memory-limit", "256MB", "-d", "3s", "-w", "2s", "-c", "32",
            "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        var m = document.Measurements;
        Assert.Equal("0.25", document.Parameters["server-cpu-limit"]);
        Assert.Equal("256MB", document.Parameters["server-memory-limit"]);

        // A quarter of a CPU in 100 ms periods: about 10 periods a second with work, most of them ending throttled.
        Assert.True(m["benchmarks/cpu/periods/total"] >= 20 && m["benchmarks/cpu/throttled/share"] >= 50,
            $"{m["benchmarks/cpu/periods/throttled"]} of {m["benchmarks/cpu/periods/total"]} periods throttled; {load.Describe()}");
        var cpus = m["benchmarks/cpu/mean"] / 100 * document.Environment.Cores;
        Assert.True(cpus is > 0.1 and < 0.3, $"the server used {cpus:0.00} CPUs under a 0.25 quota; {load.Describe()}");
        Assert.True(m["benchmarks/cpu/throttled"] > 0);
        Assert.Equal(0, m["benchmarks/memory/oom-kills"]);
        Assert.InRange(m["benchmarks/memory/peak"], 10, 256);

        // What the server's runtime made of the limits: the quota rounded up, 75% of the memory limit.
        Assert.Equal(1, m["benchmarks/processor-count"]);
        Assert.Equal(192, m["benchmarks/gc-heap-limit"]);

        // Each second of the window carries the quota's figures; the verdict names the quota, not the CPUs.
        Assert.All(document.Samples.Where(s => s.Values.ContainsKey("load/rate")), s => Assert.Contains("benchmarks/cpu/throttled/share", s.Values.Keys));
        Assert.StartsWith("the CPU quota: throttled in ", document.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("(0.25 CPUs; the server used 0.", document.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("bound: the CPU quota", run.Output, StringComparison.Ordinal);
        Assert.Empty(LimitGroups());
    }

    [MeasuredFact]
    public async Task A_server_that_leaks_past_its_memory_limit_is_killed_and_the_run_fails_with_that_cause()
    {
        Assert.True(OperatingSystem.IsLinux(), "cgroups are Linux's");
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout,
            "run", "leaking", "--plugins", TestPaths.SamplePluginDirectory, "--server-memory-limit", "96MB", "-d", "3s", "-w", "1s", "-c", "8", "--results",
            results);
        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Matches(
            "^the server exited (during the run|during the warm-up|before it was ready)? ?with code 137.*: killed for memory: the memory limit \\(96 MB\\) " +
            "was reached \\(1 OOM kill\\)$",
            document.Error);
        Assert.Contains("error: the server exited", run.Error + run.Output, StringComparison.Ordinal);
        Assert.Empty(LimitGroups());
    }

    /// <summary>
    /// Limit groups of any tool, under this test's cgroup (its runs' groups are made there); none
    /// of them is another test's (this collection runs alone).
    /// </summary>
    private static string[] LimitGroups()
    {
        var parent = CgroupFolders.Of(Environment.ProcessId, "memory");
        return Directory.Exists(parent) ? Directory.GetDirectories(parent, "benchmarks-*-server*") : [];
    }
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run --gc …</c> and the JIT's switches end to end: the server runs with them, its own report
/// of its runtime is stored with the run and agrees; on a machine that leaves the server one CPU
/// (the whole run under <c>taskset -c 0</c>, as a container's cpuset would), server GC does not
/// take effect, and the run fails saying so instead of measuring workstation GC as server GC.
/// </summary>
[LongRunning]
public sealed class RuntimeSettingRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task A_server_runs_with_the_runtime_settings_asked_and_its_report_is_stored_with_the_run_and_a_heap_count_workstation_gc_does_not_read_fails()
    {
        Assert.True(Environment.ProcessorCount >= 2, "server GC needs two CPUs");
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout,
            "run", "plaintext", "--server", "sockets", "--no-pin", "--gc", "server", "--gc-heap-count", "1", "--tiered-pgo", "false", "--ready-to-run", "false",
            "--gc-heap-hard-limit", "256MB", "--tc-quick-jit-for-loops", "false", "-d", "1s", "-w", "1s", "-c", "8", "--no-counters", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(("server", "1", "false", "false"),
            (document.Parameters["gc"], document.Parameters["gc-heap-count"], document.Parameters["tiered-pgo"], document.Parameters["ready-to-run"]));
        var ran = document.Environment.ServerRuntime ?? throw new InvalidOperationException("no server runtime stored");
        Assert.Equal(("server", "1", "0", "0", "0"), (ran["gc"], ran["heaps"], ran["datas"], ran["tiered-pgo"], ran["ready-to-run"]));
        Assert.Equal(("268435456", "0", "256MB"), (ran["heap-hard-limit"], ran["quick-jit-for-loops"], document.Parameters["gc-heap-hard-limit"]));
        Assert.Equal(Environment.Version.ToString(), ran["version"]);

        // The host's default GC, workstation, has one heap and does not read a heap count: the run says so before measuring.
        var ignoredResults = TestPaths.NewTempDirectory();
        var ignored = await HostRun.StartAsync(ignoredResults, s_timeout,
            "run", "plaintext", "--server", "sockets", "--no-pin", "--gc-heap-count", "2", "-d", "1s", "-w", "1s", "-c", "8", "--no-counters", "--results",
            ignoredResults);
        Assert.True(ignored.ExitCode == 1, ignored.ToString());
        Assert.Equal("--gc-heap-count 2 did not take effect: the server's runtime reports heaps=1", StoredRuns.Single(ignoredResults).Error);
    }

    [Fact]
    public async Task Server_gc_on_a_machine_that_gives_the_server_one_cpu_fails_the_run_naming_what_the_runtime_ran()
    {
        Assert.True(OperatingSystem.IsLinux(), "taskset is Linux's");
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartProcessAsync(results, s_timeout, new Dictionary<string, string>(), "taskset",
            "-c", "0", TestPaths.HostExecutable, "run", "plaintext", "--server", "sockets", "--no-pin", "--gc", "server", "-d", "1s", "-w", "1s", "-c", "8",
            "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(Benchmarks.Host.Documents.RunStatus.Failed, document.Status);
        Assert.Equal("--gc server did not take effect: the server's runtime reports gc=workstation on 1 processor", document.Error);
        Assert.Equal("workstation", document.Environment.ServerRuntime?["gc"]);
        Assert.Contains("did not take effect", run.Error + run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Another_runtime_patch_runs_the_server_and_is_read_back_and_one_not_to_be_had_fails_in_one_line()
    {
        // Patches the registry serves other than the one installed here, fetched into a cache of this test's own.
        var installed = Environment.Version.ToString();
        var versions = new[] { "10.0.14", "10.0.15" }.Where(v => v != installed).Take(1).ToArray();
        var results = TestPaths.NewTempDirectory();
        var environment = new Dictionary<string, string> { ["BENCHMARKS_RUNTIME_CACHE"] = TestPaths.NewTempDirectory() };
        var run = await HostRun.StartAsync(results, s_timeout, environment,
            "run", "plaintext", "--server", "sockets", "--runtime-version", versions[0], "-d", "1s", "-w", "1s", "-c", "8", "--no-counters", "--results",
            results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var documents = StoredRuns.All(results).OrderBy(d => d.StartedAt).ToList();
        Assert.Equal(versions, documents.Select(d => d.Parameters["runtime-version"]));
        Assert.Equal(versions, documents.Select(d => d.Environment.ServerRuntime?["version"]));

        var missing = await HostRun.StartAsync(results, s_timeout, environment,
            "run", "plaintext", "--server", "sockets", "--runtime-version", "10.0.99", "-d", "1s", "-w", "1s", "--results", results);
        Assert.True(missing.ExitCode == 1, missing.ToString());
        var failed = StoredRuns.All(results).Single(d => d.Parameters.GetValueOrDefault("runtime-version") == "10.0.99");
        Assert.StartsWith("runtime 10.0.99 could not be fetched: ", failed.Error, StringComparison.Ordinal);
        Assert.Contains("NU1102", failed.Error, StringComparison.Ordinal);
        Assert.Empty(Directory.GetDirectories(environment["BENCHMARKS_RUNTIME_CACHE"], ".*"));
    }
}

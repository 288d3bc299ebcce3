using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run --gc …</c> and the JIT's switches end to end: the server runs with them, its own report
/// of its runtime is stored with the run and agrees; on a machine that leaves the server one CPU
/// (the whole run under <c>taskset -c 0</c>, as a container's cpuset would), server GC does not
/// take effect, and the run fails saying so instead of measuring workstation GC as server GC.
/// </summary>
public sealed class RuntimeSettingRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task A_server_runs_with_the_runtime_settings_asked_and_its_report_is_stored_with_the_run()
    {
        Assert.True(Environment.ProcessorCount >= 2, "server GC needs two CPUs");
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout,
            "run", "plaintext", "--server", "sockets", "--no-pin", "--gc", "datas", "--tiered-pgo", "false", "--ready-to-run", "false",
            "-d", "1s", "-w", "1s", "-c", "8", "--no-counters", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(("datas", "false", "false"), (document.Parameters["gc"], document.Parameters["tiered-pgo"], document.Parameters["ready-to-run"]));
        var ran = document.Environment.ServerRuntime ?? throw new InvalidOperationException("no server runtime stored");
        Assert.Equal(("server", "1", "0", "0"), (ran["gc"], ran["datas"], ran["tiered-pgo"], ran["ready-to-run"]));
        Assert.Equal(Environment.Version.ToString(), ran["version"]);
        Assert.True(int.Parse(ran["heaps"], System.Globalization.CultureInfo.InvariantCulture) >= 1, string.Join(' ', ran));
    }

    [Fact]
    public async Task Server_gc_on_a_machine_that_gives_the_server_one_cpu_fails_the_run_naming_what_the_runtime_ran()
    {
        Assert.True(OperatingSystem.IsLinux(), "taskset is Linux's");
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartProcessAsync(results, s_timeout, new Dictionary<string, string>(), "taskset",
            "-c", "0", TestPaths.HostExecutable, "run", "plaintext", "--server", "sockets", "--no-pin", "--gc", "server", "-d", "1s", "-w", "1s", "-c", "8", "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(Benchmarks.Host.Documents.RunStatus.Failed, document.Status);
        Assert.Equal("--gc server did not take effect: the server's runtime reports gc=workstation on 1 processor", document.Error);
        Assert.Equal("workstation", document.Environment.ServerRuntime?["gc"]);
        Assert.Contains("did not take effect", run.Error + run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Two_runtime_patches_side_by_side_each_read_back_from_its_server_and_one_not_to_be_had_fails_in_one_line()
    {
        // Patches the registry serves other than the one installed here, fetched into a cache of this test's own.
        var installed = Environment.Version.ToString();
        var versions = new[] { "10.0.11", "10.0.14", "10.0.15" }.Where(v => v != installed).Take(2).ToArray();
        var results = TestPaths.NewTempDirectory();
        var environment = new Dictionary<string, string> { ["BENCHMARKS_RUNTIME_CACHE"] = TestPaths.NewTempDirectory() };
        var run = await HostRun.StartAsync(results, s_timeout, environment,
            "run", "plaintext", "--server", "sockets", "--runtime-version", string.Join(',', versions), "-d", "1s", "-w", "1s", "-c", "8", "--no-counters", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var documents = StoredRuns.All(results).OrderBy(d => d.StartedAt).ToList();
        Assert.Equal(versions, documents.Select(d => d.Parameters["runtime-version"]));
        Assert.Equal(versions, documents.Select(d => d.Environment.ServerRuntime?["version"]));
        Assert.Contains("| runtime-version |", run.Output, StringComparison.Ordinal);

        var missing = await HostRun.StartAsync(results, s_timeout, environment,
            "run", "plaintext", "--server", "sockets", "--runtime-version", "10.0.99", "-d", "1s", "-w", "1s", "--results", results);
        Assert.True(missing.ExitCode == 1, missing.ToString());
        var failed = StoredRuns.All(results).Single(d => d.Parameters.GetValueOrDefault("runtime-version") == "10.0.99");
        Assert.StartsWith("runtime 10.0.99 could not be fetched: ", failed.Error, StringComparison.Ordinal);
        Assert.Contains("NU1102", failed.Error, StringComparison.Ordinal);
        Assert.Empty(Directory.GetDirectories(environment["BENCHMARKS_RUNTIME_CACHE"], ".*"));
    }
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run --publish aot</c>: the scenario and the server model compiled ahead of time into one
/// program by the SDK's NativeAOT compiler, published on first use into a cache of its own (here a
/// fresh one, so the publish is part of the test), then run, loaded and stored as any server is,
/// its runtime's own report saying it runs without a JIT and its counters read through EventPipe;
/// the refusals (of both published ways) come before anything is built.
/// </summary>
[LongRunning(100)]
public sealed class NativeServerRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(12);

    [Fact]
    public async Task A_sockets_server_compiled_ahead_of_time_is_published_once_run_loaded_and_stored_with_its_size()
    {
        Tools.Require("clang");
        var cache = TestPaths.NewTempDirectory();
        var environment = new Dictionary<string, string> { ["BENCHMARKS_NATIVE_CACHE"] = cache };
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, environment,
            "run", "plaintext", "--server", "sockets", "--publish", "aot", "--startup", "2", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("NativeAOT server published in ", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal("aot", document.Parameters["publish"]);
        var ran = document.Environment.ServerRuntime ?? throw new InvalidOperationException("no server runtime stored");
        Assert.Equal("aot", ran["compiled"]);
        Assert.All(document.Iterations!, start =>
        {
            // One executable with its runtime: a few MB, against the tens of MB of the JIT server's assemblies.
            Assert.InRange(start["benchmarks/published-size"], 1_000, 60_000);
            Assert.True(start["benchmarks/startup/first-response"] > 0, "no first response");
        });

        // The same program is reused by the next run, which loads it; JIT counts stay at none.
        var loaded = TestPaths.NewTempDirectory();
        var second = await HostRun.StartAsync(loaded, s_timeout, environment,
            "run", "plaintext", "--server", "sockets", "--publish", "aot", "-d", "2s", "-w", "1s", "-c", "16", "--results", loaded);
        Assert.True(second.ExitCode == 0, second.ToString());
        Assert.Contains(" MB, published before)", second.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("NativeAOT server published in ", second.Output, StringComparison.Ordinal);
        var measured = StoredRuns.Single(loaded);
        Assert.True(measured.Measurements["http/rps/mean"] > 100, $"{measured.Measurements["http/rps/mean"]} req/s");

        // Compiled with EventPipe, it listens on the runtime's diagnostics port: its counters are read as a JIT server's are.
        Assert.True(measured.Measurements.ContainsKey("runtime-counter/gc-heap-size"), "no runtime counters: " + string.Join(", ", measured.Measurements.Keys));
        Assert.Single(Directory.GetDirectories(Directory.GetDirectories(cache).Single()));
    }

    [Theory]
    [InlineData("aot", "--server", "libuv", "--publish aot: the NativeAOT server is built for kestrel and sockets, not 'libuv'.")]
    [InlineData("aot", "--tiered-pgo", "false", "--publish aot: --tiered-pgo is the JIT's, and a NativeAOT server has none.")]
    [InlineData("aot", "--runtime-version", "10.0.14", "--publish aot: a NativeAOT server carries its runtime, so --runtime-version cannot choose one.")]
    [InlineData("aot", "--trace-seconds", "2s",
        "--publish aot: a NativeAOT server's EventPipe samples no stacks and names no methods (--profiler perf samples it).")]
    [InlineData("r2r", "--server", "libuv", "--publish r2r: the ReadyToRun server is built for kestrel and sockets, not 'libuv'.")]
    [InlineData("r2r", "--ready-to-run", "false", "--publish r2r: --ready-to-run false would have the server ignore the ReadyToRun code it is published for.")]
    [InlineData("r2r", "--runtime-version", "10.0.14",
        "--publish r2r: the ReadyToRun server runs on this program's runtime; --runtime-version runs this program's own serve on another.")]
    public async Task What_a_published_server_cannot_be_is_refused_in_one_line_before_anything_is_built(string publish, string option, string value,
        string message)
    {
        // In this process: the refusal is the planner's, before the publish that would add a folder to the cache.
        var results = TestPaths.NewTempDirectory();
        var cache = Path.Combine(Benchmarks.Host.Jobs.NativeServerBuild.CacheRoot, System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier);
        string[] Built() => Directory.Exists(cache) ? Directory.GetFileSystemEntries(cache) : [];
        var before = Built();
        var run = await InProcessCli.InvokeAsync("run", "plaintext", "--publish", publish, option, value, "--results", results);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains(message, run.Error, StringComparison.Ordinal);
        Assert.Equal(before, Built());
        Assert.Empty(Directory.GetFiles(results, "*.json", SearchOption.AllDirectories));
    }
}

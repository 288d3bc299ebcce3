using System.Net;
using Benchmarks.Host.Platform;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run --publish r2r</c>: the program <c>--publish aot</c> compiles, published instead with
/// every assembly precompiled (ReadyToRun) into a cache of its own (a fresh one here, so the
/// publish is part of the test), started by the machine's <c>dotnet</c>, loaded and stored as any
/// server is: its runtime's own report says it runs from ReadyToRun code, and, as it keeps the
/// runtime's diagnostics port, its counters are read as a JIT server's are. The same program serves a
/// crank job (<c>serve --publish r2r</c>, crank/benchmarks.yml's <c>publish</c> variable): the host publishes
/// it, or finds it published by the other test (they share one cache, and one publish), runs it as its child
/// and names it to the agent, which measures it.
/// </summary>
[LongRunning(60)]
public sealed class ReadyToRunServerRunTests
{
    private static readonly Lazy<string> s_cache = new(TestPaths.NewTempDirectory);

    [Fact]
    public async Task A_sockets_server_precompiled_ready_to_run_is_published_run_loaded_and_its_counters_read()
    {
        var cache = s_cache.Value;
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(8), new Dictionary<string, string> { ["BENCHMARKS_NATIVE_CACHE"] = cache },
            "run", "plaintext", "--server", "sockets", "--publish", "r2r", "-d", "2s", "-w", "1s", "-c", "16", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.True(
            run.Output.Contains("ReadyToRun server published in ", StringComparison.Ordinal)
                || run.Output.Contains("MB, published before)", StringComparison.Ordinal),
            run.Output);
        var document = StoredRuns.Single(results);
        Assert.Equal("r2r", document.Parameters["publish"]);
        var ran = document.Environment.ServerRuntime ?? throw new InvalidOperationException("no server runtime stored");
        Assert.Equal("r2r", ran["compiled"]);
        Assert.InRange(document.Measurements["benchmarks/published-size"], 1_000, 200_000);
        Assert.True(document.Measurements["http/rps/mean"] > 100, $"{document.Measurements["http/rps/mean"]} req/s");
        Assert.True(document.Measurements.ContainsKey("runtime-counter/gc-heap-size"), "no runtime counters: " + string.Join(", ", document.Measurements.Keys));

        // The program's own assemblies are precompiled: each carries a managed native header, as crossgen2 writes one.
        var program = Directory.GetFiles(Directory.GetDirectories(Directory.GetDirectories(cache).Single()).Single(), "benchmarks-server.dll").Single();
        using var reader = new System.Reflection.PortableExecutable.PEReader(File.OpenRead(program));
        Assert.True(reader.PEHeaders.CorHeader!.ManagedNativeHeaderDirectory.Size > 0, "benchmarks-server.dll carries no ReadyToRun code");
    }

    [Fact]
    public async Task A_crank_job_serving_with_publish_r2r_runs_the_published_program_and_the_agent_measures_it()
    {
        await using var agent = await AgentProcess.StartAsync(environment: new Dictionary<string, string> { ["BENCHMARKS_NATIVE_CACHE"] = s_cache.Value });
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.Job("application", "publish-r2r", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario plaintext --server sockets --urls http://127.0.0.1:{port} --publish r2r --report-runtime";
            j["Port"] = port;
            j["ReadyStateText"] = "Application started.";
            j["StartTimeout"] = "00:08:00";
        }));
        await client.LaunchAsync(id, TimeSpan.FromMinutes(1));
        await client.ReachAsync(id, TimeSpan.FromMinutes(8), null, "Running");
        using (var http = new HttpClient())
        {
            for (var i = 0; i < 20; i++)
            {
                Assert.Equal("Hello, World!", await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/plaintext")));
            }
        }

        // The agent measures the published program the host named, not the host, which only waits for it.
        var job = await client.GetAsync(id);
        var (host, child) = ((int)job["processId"]!, (int)job["childProcessId"]!);
        Assert.True(child > 0 && child != host, $"process {host}, child {child}");
        Assert.Equal(child, (int)job["activeProcessId"]!);
        Assert.Contains("benchmarks-server.dll", File.ReadAllText($"/proc/{child}/cmdline"), StringComparison.Ordinal);
        var (status, output) = await client.GetRawAsync($"/jobs/{id}/output");
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Contains($"##ChildProcessId:{child}", output, StringComparison.Ordinal);
        Assert.Contains("#runtime-config compiled=r2r ", output, StringComparison.Ordinal);

        // What its runtime said it ran with is in the job's results, kept once as crank keeps its SDK's version.
        var reported = AgentClient.LastMeasurements(await client.GetAsync(id));
        Assert.Equal("r2r", (string?)reported["benchmarks/runtime/compiled"]);
        Assert.Equal("workstation", (string?)reported["benchmarks/runtime/gc"]);
        Assert.Equal(Environment.Version.ToString(), (string?)reported["benchmarks/runtime/version"]);
        var metadata = (await client.GetAsync(id))["metadata"]!.AsArray()
            .OfType<System.Text.Json.Nodes.JsonObject>()
            .Single(m => (string?)m["name"] == "benchmarks/runtime/compiled");
        Assert.Equal(("First", "First"), ((string?)metadata["aggregate"], (string?)metadata["reduce"]));

        // Its memory is the published program's: resident, and the private part of it.
        var waited = System.Diagnostics.Stopwatch.StartNew();
        Dictionary<string, System.Text.Json.Nodes.JsonNode?> values;
        do
        {
            await Task.Delay(TimeSpan.FromSeconds(0.5));
            values = AgentClient.LastMeasurements(await client.GetAsync(id));
        }
        while (!values.ContainsKey("benchmarks/working-set/private") && waited.Elapsed < TimeSpan.FromSeconds(20));
        Assert.True(
            values.GetValueOrDefault("benchmarks/working-set/private") is { } own
                && (double)own! > 2
                && (double)own! <= (double)values["benchmarks/working-set"]!,
            string.Join(", ", values.Keys));

        // A stop ends both: the host stops its child, and nothing is left.
        Assert.Equal(HttpStatusCode.Accepted, await client.StopAsync(id));
        await client.WaitForStateAsync(id, TimeSpan.FromSeconds(30), null, "Stopped");
        waited.Restart();
        while ((Directory.Exists($"/proc/{child}") || Directory.Exists($"/proc/{host}")) && waited.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(100);
        }

        Assert.False(Directory.Exists($"/proc/{child}"), "the published server outlived its job");
        Assert.False(Directory.Exists($"/proc/{host}"), "the host outlived its job");
    }
}

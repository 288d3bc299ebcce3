using Benchmarks.Host.Platform;
using System.Globalization;
using System.Text.Json.Nodes;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Tests.Integration;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Measurements;

/// <summary>
/// One meaning per name: the same scenario run locally (<c>run pipelined</c>) and through the
/// agent (a server job and a load job, as crank starts them) on one machine, the server under the
/// same CPU quota and memory limit on both paths, compared name by
/// name — the metadata each path declares, and the way each value comes from its samples. It
/// compares meanings, not speeds (the two rates only need to be of one kind), so it runs beside
/// the other parallel tests.
/// </summary>
public sealed class OneMeaningTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    /// <summary>Names both paths must report: the server's process, the machine, the interface and the load.</summary>
    private static readonly string[] Shared =
    [
        "benchmarks/cpu", "benchmarks/cpu/mean", "benchmarks/cpu/user", "benchmarks/cpu/kernel", "benchmarks/working-set",
        "machine/cpu/user", "machine/cpu/kernel", "machine/cpu/idle", "machine/cpu/steal", "net/rx", "net/tx", "net/rx/bytes", "net/tx/bytes",
        "http/rps/mean", "http/requests", "http/latency/50", "http/latency/99", "http/latency/max", "load/cpu/user", "load/cpu/kernel",
        "benchmarks/cpu/periods/total", "benchmarks/cpu/periods/throttled", "benchmarks/cpu/throttled", "benchmarks/cpu/throttled/share",
        "benchmarks/memory/oom-kills", "benchmarks/memory/peak",
    ];

    [Fact]
    public async Task A_local_run_and_an_agent_job_declare_and_compute_every_shared_name_the_same_way()
    {
        // The local run. A long request timeout on both paths: the suite runs beside other loads, and a
        // starved second is not what this test is about.
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(2), "run", "pipelined", "--server", "sockets", "-d", "3s", "-w", "1s", "-c", "32",
            "-T", "10s", "--results", results, "--server-cpu-limit", "0.5", "--server-memory-limit", "512MB");
        Assert.True(run.ExitCode == 0, run.ToString());
        var local = StoredRuns.Single(results);

        // The same through the agent: the server as crank's application job, the load as its load job.
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var server = await client.CreateAsync(AgentClient.Job("application", "one-meaning", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario pipelined --server sockets --urls http://127.0.0.1:{port}";
            j["ReadyStateText"] = "Application started.";
            j["Port"] = port;

            // Placed and limited as the local run (server on CPU 0 with half a CPU's quota, load on CPU 1): the two rates compare like with like.
            j["CpuSet"] = "0";
            j["CpuLimitRatio"] = 0.5 / Environment.ProcessorCount;
            j["MemoryLimitInBytes"] = 512L << 20;
            j["Endpoints"] = new JsonArray(agent.Url.ToString());
        }));
        await client.LaunchAsync(server, Wait);

        // As crank's controller does: the load starts once the server is running, or a slow start on a
        // busy machine outlasts the load's warm-up and its first connects in the window are refused.
        await client.ReachAsync(server, Wait, null, "Running");
        var load = await client.CreateAsync(AgentClient.Job("load", "one-meaning", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"load --url http://127.0.0.1:{port}/plaintext --scenario pipelined --pipeline 16 -c 32 -d 3s --warmup 1s -T 10s " +
                $"--crank-statistics";
            j["IsConsoleApp"] = true;
            j["WaitForExit"] = true;
            j["CpuSet"] = "1";
            j["Endpoints"] = new JsonArray(agent.Url.ToString());
        }));
        await client.LaunchAsync(load, Wait, [server]);
        var loadState = await client.WaitForStateAsync(load, Wait, [server], "Stopped", "Failed");
        Assert.True(loadState == "Stopped", $"{loadState}: {(await client.GetAsync(load))["error"]}");
        await client.StopAsync(server);
        await client.ReachAsync(server, Wait, null, "Stopped");
        var serverJob = await client.GetAsync(server);
        var loadJob = await client.GetAsync(load);

        // Crank's view: each job's samples reduced with the aggregate that job declared.
        var reported = new Dictionary<string, double>(StringComparer.Ordinal);
        var declared = new Dictionary<string, JsonObject>(StringComparer.Ordinal);
        foreach (var job in new[] { serverJob, loadJob })
        {
            foreach (var metadata in job["metadata"]!.AsArray().OfType<JsonObject>())
            {
                var name = (string)metadata["name"]!;
                declared[name] = metadata;
                if ((string?)metadata["format"] is "" or "object")
                {
                    // A text result (the server's verdict), not a figure.
                    continue;
                }

                var series = AgentClient.Values(job, name);
                if (series.Count > 0)
                {
                    reported[name] = Operations.Parse((string?)metadata["aggregate"])!.Value.Apply(series);
                }
            }
        }

        foreach (var name in Shared)
        {
            Assert.True(declared.ContainsKey(name), $"the agent does not declare {name}");
            Assert.True(reported.ContainsKey(name), $"the agent reports no {name}");
            Assert.True(local.Measurements.ContainsKey(name), $"the local run reports no {name}");
            var info = local.Metadata[name];
            var metadata = declared[name];
            Assert.Equal(info.Aggregate, ((string)metadata["aggregate"]!).ToLowerInvariant());
            Assert.Equal(info.Reduce, ((string)metadata["reduce"]!).ToLowerInvariant());
            Assert.Equal(info.Format, (string?)metadata["format"]);
            Assert.Equal(info.Description, (string?)metadata["longDescription"]);
            Assert.Equal(MeasurementCatalog.LabelOf(name), (string?)metadata["shortDescription"]);
            Assert.Equal(MeasurementCatalog.Find(name)!.Info, info);
        }

        // The local run's value of each sampled name is its aggregate over its own samples, as crank does with the agent's.
        foreach (var measurement in MeasurementCatalog.All.Where(m => m.Sampled && local.Measurements.ContainsKey(m.Name)))
        {
            var series = local.Samples.Where(s => s.Values.ContainsKey(measurement.Name)).Select(s => s.Values[measurement.Name]).ToList();
            Assert.Equal(measurement.Aggregate.Apply(series), local.Measurements[measurement.Name], 9);
        }

        // What each name means holds on both paths: the CPU split adds up to the mean, the busiest
        // interval is not below it, the machine's parts make the whole, the load's bytes are counted.
        foreach (var (path, values) in new[] { ("local", (IReadOnlyDictionary<string, double>)local.Measurements), ("agent", reported) })
        {
            Assert.True(Math.Abs(values["benchmarks/cpu/mean"] - (values["benchmarks/cpu/user"] + values["benchmarks/cpu/kernel"])) < 1e-6, path);
            Assert.True(values["benchmarks/cpu"] >= values["benchmarks/cpu/mean"] - 1e-9, path);
            Assert.InRange(values["machine/cpu/user"] + values["machine/cpu/kernel"] + values["machine/cpu/idle"] + values["machine/cpu/steal"], 99.5, 100.5);
            Assert.True(values["net/rx/bytes"] > 0 && values["http/rps/mean"] > 0, path);
            // What the quota's names mean, not whether it bound: beside other tests the server may never reach its half CPU.
            Assert.True(
                values["benchmarks/cpu/periods/total"] > 0
                    && values["benchmarks/cpu/periods/throttled"] <= values["benchmarks/cpu/periods/total"]
                    && values["benchmarks/cpu/throttled/share"] is >= 0 and <= 100,
                $"{path}: {values["benchmarks/cpu/periods/throttled"]} of {values["benchmarks/cpu/periods/total"]} periods throttled");
            Assert.True(values["benchmarks/memory/oom-kills"] == 0 && values["benchmarks/memory/peak"] is > 5 and < 512, path);
        }

        // The same server under the same load: the two rates are of one kind (noisy machines: a factor of 4 either way).
        var ratio = reported["http/rps/mean"] / local.Measurements["http/rps/mean"];
        Assert.True(ratio is > 0.25 and < 4,
            string.Create(CultureInfo.InvariantCulture, $"agent {reported["http/rps/mean"]:N0} vs local {local.Measurements["http/rps/mean"]:N0} req/s"));
    }
}

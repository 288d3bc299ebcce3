using Benchmarks.Host.Platform;
using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Integration;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The pipelined scenario through agents as crank runs it: server and load jobs built from this
/// repository's sources by <c>dotnet publish</c> on the agent, then two agents in separate
/// network namespaces joined by veth links, the load's NIC bytes checked against what it read.
/// </summary>
[Collection(PublishingSecondAgent.Name)]
public sealed class AgentEndToEndTests(ReplayAgent fixture, ITestOutputHelper output)
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Crank_pipelined_scenario_builds_server_and_load_from_uploaded_sources_and_reports_rps_and_the_cpu_split()
    {
        // The collection's agent: its framework-dependent build of these sources is published once for this test and the replays.
        using var client = new AgentClient(fixture.Agent.Url);
        var port = LoopbackPort.Free();

        // Exactly what 'crank --config crank/plaintext.yml --scenario pipelined --profile local' sends,
        // with a free port and a shorter run (crank: --variable serverPort=… --variable duration=5s …):
        // long enough for the server's verdict, which needs 2 whole loaded seconds after the partial
        // edges (3 s beside the parallel tests once left it fewer).
        var jobs = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", "plaintext.yml")).Render("pipelined", "local", new Dictionary<string, string>
        {
            ["serverPort"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["duration"] = "5s",
            ["warmup"] = "1s",
            ["connections"] = "32",
        });
        var application = jobs.Single(j => j.Name == "application");
        var loadSpec = jobs.Single(j => j.Name == "load");
        Assert.Equal(Path.TrimEndingDirectorySeparator(Path.GetFullPath(TestPaths.RepoRoot)), application.LocalFolder);
        Assert.Equal(["http://127.0.0.1:5010"], application.Endpoints);
        Assert.Equal(("0", "1"), (application.CpuSet, loadSpec.CpuSet));
        Assert.Equal("0", loadSpec.EnvironmentVariables["DOTNET_TieredCompilation"]);
        var sources = TranscriptRequests.Sources.Value;

        // Named 'default', as crank names a job's sources.
        JsonObject Send(CrankJob spec) => AgentClient.Job(spec.Name, "pipelined", j =>
        {
            j["Project"] = spec.Project;
            j["Sources"] = new JsonObject { ["default"] = new JsonObject { ["LocalFolder"] = spec.LocalFolder, ["DestinationFolder"] = "" } };
            j["Arguments"] = spec.Arguments;
            j["ReadyStateText"] = spec.ReadyStateText;
            j["IsConsoleApp"] = spec.IsConsoleApp;
            j["WaitForExit"] = spec.WaitForExit;
            j["Port"] = port;
            j["CpuSet"] = spec.CpuSet;
            j["EnvironmentVariables"] = new JsonObject([.. spec.EnvironmentVariables.Select(e => KeyValuePair.Create(e.Key, (JsonNode?)e.Value))]);
        });

        var server = await client.CreateAsync(Send(application));
        await client.WaitForStateAsync(server, Wait, null, "Initializing");
        Assert.Equal(HttpStatusCode.OK, await client.UploadSourceAsync(server, "default", sources));
        await client.StartAsync(server);
        await client.ReachAsync(server, TimeSpan.FromMinutes(8), null, "Running");

        var load = await client.CreateAsync(Send(loadSpec));
        await client.WaitForStateAsync(load, Wait, [server], "Initializing");
        Assert.Equal(HttpStatusCode.OK, await client.UploadSourceAsync(load, "default", sources));
        await client.StartAsync(load);
        await client.ReachAsync(load, TimeSpan.FromMinutes(8), [server], "Stopped");

        var loadJob = await client.GetAsync(load);
        Assert.Null((string?)loadJob["error"]);
        var results = AgentClient.LastMeasurements(loadJob);
        Assert.True((double)results["http/rps/mean"]! > 1000, $"http/rps/mean = {results["http/rps/mean"]}");
        Assert.Equal(0, (double)results["http/requests/errors"]!);
        Assert.Contains(loadJob["metadata"]!.AsArray(), m => (string?)m!["name"] == "http/rps/mean");
        // Whether the window was steady reaches crank's table too, as the load's window: line.
        // The table's row is its first clause; the whole line is kept out of the table (format object) for --json.
        var windowLine = (string?)results[Benchmarks.Host.Crank.CrankStatistics.Window];
        var windowBrief = (string?)results[Benchmarks.Host.Crank.CrankStatistics.WindowBrief];
        Assert.StartsWith("window: ", windowLine, StringComparison.Ordinal);
        Assert.StartsWith(windowBrief!, windowLine, StringComparison.Ordinal);
        Assert.InRange(windowBrief!.Length, "window: steady".Length, Benchmarks.Host.Crank.CrankText.BriefLength);
        Assert.Contains(loadJob["metadata"]!.AsArray(),
            m => (string?)m!["name"] == Benchmarks.Host.Crank.CrankStatistics.WindowBrief && (string?)m["format"] == "");
        Assert.Contains(loadJob["metadata"]!.AsArray(),
            m => (string?)m!["name"] == Benchmarks.Host.Crank.CrankStatistics.Window && (string?)m["format"] == "object");
        var (_, loadBuildLog) = await client.GetRawAsync($"/jobs/{load}/buildlog");
        Assert.Contains("Reusing the build", loadBuildLog, StringComparison.Ordinal);

        await client.StopAsync(server);
        await client.ReachAsync(server, Wait, null, "Stopped");
        var serverJob = await client.GetAsync(server);
        var user = AgentClient.Values(serverJob, "benchmarks/cpu/user");
        var kernel = AgentClient.Values(serverJob, "benchmarks/cpu/kernel");
        // Both halves of the split are read (a pipelined server spends little in the kernel, and the
        // parallel tier shares the machine: the kernel's peak has read 1.0% of it).
        Assert.True(user.Max() > 1, $"server user CPU peaked at {user.Max():0.0}%");
        Assert.True(kernel.Max() > 0.1, $"server kernel CPU peaked at {kernel.Max():0.00}%");
        Assert.True(AgentClient.Values(serverJob, "benchmarks/build-time").Single() > 0);
        Assert.True(AgentClient.Values(serverJob, "net/rx").Max() > 0, "loopback traffic was not seen on the loopback interface");
        Assert.True(AgentClient.Values(serverJob, "net/rx/packets").Max() > 0, "the agent samples packets under the run's name");

        // The job spans the server's start-up and its idle seconds after the load: crank's mean of net/tx
        // is below the window's rate, and its maximum of net/tx/peak is the busiest interval's.
        var tx = AgentClient.Values(serverJob, "net/tx");
        var txPeak = AgentClient.Values(serverJob, "net/tx/peak");
        Assert.Equal(tx.Max(), txPeak.Max(), 6);
        Assert.True(txPeak.Max() > tx.Average(), $"net/tx/peak {txPeak.Max():0.0} Mbit/s, net/tx mean {tx.Average():0.0} over {tx.Count} intervals");
        Assert.Contains(serverJob["metadata"]!.AsArray(), m => (string?)m!["name"] == "net/tx/peak" && (string?)m["aggregate"] == "Max");
        // The server's verdict, judged on the seconds it was loaded, with the load's CPU from the same agent beside it.
        var verdict = AgentClient.LastMeasurements(serverJob);
        var (_, serverOutput) = await client.GetRawAsync($"/jobs/{server}/output");
        var agentLines = serverOutput.Split('\n').Where(l => l.Contains("[agent]", StringComparison.Ordinal));
        Assert.True(verdict.ContainsKey(Benchmarks.Host.Verdicts.JobVerdict.Bound), string.Join(Environment.NewLine, agentLines));
        var bound = (string?)verdict[Benchmarks.Host.Verdicts.JobVerdict.Bound];
        output.WriteLine($"bound: {bound}");
        Assert.NotNull(Benchmarks.Host.Verdicts.CauseKinds.Named(((string?)verdict[Benchmarks.Host.Verdicts.JobVerdict.Kinds] ?? "").Split(", ")[0]));
        Assert.Contains("the load ran on this machine too", bound, StringComparison.Ordinal);
        Assert.Equal(Benchmarks.Host.Crank.CrankText.Brief(bound!), (string?)verdict[Benchmarks.Host.Verdicts.JobVerdict.Brief]);
        output.WriteLine($"pipelined through the agent: {(double)results["http/rps/mean"]!:n0} req/s; " +
            $"server cpu peak user {user.Max():0.0}% kernel {kernel.Max():0.0}%; " +
            $"build {AgentClient.Values(serverJob, "benchmarks/build-time").Single() / 1000:0.0} s (load: reused)");

        await client.DeleteAsync(load);
        await client.DeleteAsync(server);
        Assert.Equal("Deleted", await client.StateAsync(load));
        Assert.Equal("Deleted", await client.StateAsync(server));
    }

    [Fact]
    public async Task Crank_pipelined_wrk_scenario_runs_wrk_through_the_agent_and_reports_its_results()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var jobs = CrankConfig.Load(Path.Combine(TestPaths.RepoRoot, "crank", "plaintext.yml")).Render("pipelined-wrk", "local", new Dictionary<string, string>
        {
            ["serverPort"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["duration"] = "2s",
            ["warmup"] = "1s",
            ["connections"] = "32",
        });

        // The built program stands in for the agent's publish of the same sources (covered by the test above).
        JsonObject Send(CrankJob spec) => AgentClient.Job(spec.Name, "wrk", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = spec.Arguments;
            j["ReadyStateText"] = spec.ReadyStateText;
            j["IsConsoleApp"] = spec.IsConsoleApp;
            j["WaitForExit"] = spec.WaitForExit;
        });

        var server = await client.CreateAsync(Send(jobs.Single(j => j.Name == "application")));
        await client.LaunchAsync(server, Wait);
        await client.ReachAsync(server, Wait, null, "Running");
        var loadSpec = jobs.Single(j => j.Name == "load");
        Assert.Contains("--generator wrk", loadSpec.Arguments, StringComparison.Ordinal);
        var load = await client.CreateAsync(Send(loadSpec));
        await client.LaunchAsync(load, Wait, [server]);
        await client.ReachAsync(load, Wait, [server], "Stopped");

        var loadJob = await client.GetAsync(load);
        var results = AgentClient.LastMeasurements(loadJob);
        Assert.True((double)results["http/rps/mean"]! > 1000);
        Assert.Equal(0, (double)results["http/requests/errors"]!);
        var (_, printed) = await client.GetRawAsync($"/jobs/{load}/output");
        Assert.Contains("Requests/sec:", printed, StringComparison.Ordinal);
        output.WriteLine($"pipelined-wrk through the agent: {(double)results["http/rps/mean"]!:n0} req/s");
        await client.DeleteAsync(load);
        await client.DeleteAsync(server);
    }

    [Fact]
    public async Task Two_agents_in_separate_network_namespaces_measure_the_veth_traffic_the_load_received()
    {
        await using var network = await NetworkNamespaces.CreateAsync(2);
        var (serverAddress, loadAddress) = (network.Addresses[0], network.Addresses[1]);
        var allow = new[] { "--allow", network.Subnet };
        await using var serverAgent = await AgentProcess.StartAsync(url: $"http://{serverAddress}:5010", options: allow, networkNamespace: network.Names[0]);
        await using var loadAgent = await AgentProcess.StartAsync(url: $"http://{loadAddress}:5010", options: allow, networkNamespace: network.Names[1]);
        using var serverClient = new AgentClient(serverAgent.Url);
        using var loadClient = new AgentClient(loadAgent.Url);

        var server = await serverClient.CreateAsync(AgentClient.Job("application", "netns", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario pipelined --server sockets --urls http://{serverAddress}:5000";
            j["ReadyStateText"] = "Application started.";
        }));
        await serverClient.LaunchAsync(server, Wait);
        await serverClient.ReachAsync(server, Wait, null, "Running");

        var load = await loadClient.CreateAsync(AgentClient.Job("load", "netns", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"load --url http://{serverAddress}:5000/plaintext --connections 16 --pipeline 16 --duration 3s --warmup 0s --crank-statistics";
            j["IsConsoleApp"] = true;
            j["WaitForExit"] = true;
        }));
        await loadClient.LaunchAsync(load, Wait);
        var end = DateTime.UtcNow + Wait;
        string state;
        while ((state = await loadClient.StateAsync(load)) is not ("Stopped" or "Failed") && DateTime.UtcNow < end)
        {
            await serverClient.TouchAsync(server);
            await Task.Delay(200);
        }

        Assert.Equal("Stopped", state);
        var loadJob = await loadClient.GetAsync(load);
        var results = AgentClient.LastMeasurements(loadJob);
        var received = (double)results["http/bytes"]!;
        var onTheWire = AgentClient.Values(loadJob, "net/rx/bytes").Max();
        Assert.True(received > 1_000_000, $"the load received only {received} bytes");

        // The NIC also counts Ethernet, IP and TCP headers: a few percent over the HTTP bytes, never less.
        var ratio = onTheWire / received;
        Assert.InRange(ratio, 1.0, 1.15);
        Assert.True(AgentClient.Values(loadJob, "net/rx").Max() > 0);

        await serverClient.StopAsync(server);
        await serverClient.WaitForStateAsync(server, Wait, null, "Stopped", "Failed");
        var serverJob = await serverClient.GetAsync(server);
        var serverTx = AgentClient.Values(serverJob, "net/tx/bytes").Max();
        output.WriteLine($"netns: load read {received:n0} HTTP bytes; its veth received {onTheWire:n0} bytes (ratio {ratio:0.000}); " +
            $"the server's veth sent {serverTx:n0}; {(double)results["http/rps/mean"]!:n0} req/s");
        Assert.InRange(serverTx / onTheWire, 0.98, 1.02);
        await loadClient.DeleteAsync(load);
        await serverClient.DeleteAsync(server);
    }
}

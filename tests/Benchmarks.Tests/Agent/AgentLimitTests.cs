using Benchmarks.Host.Platform;
using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// crank's <c>cpuLimitRatio</c> and <c>memoryLimitInBytes</c> against the agent, with the fields as
/// the real controller sent them (limits.jsonl): the job's process runs in a cgroup of the agent's
/// from its first instruction — its runtime sees the quota and the memory limit — its throttling
/// comes back under crank's names with their metadata, and the group is gone with the job; a job
/// whose native memory grows past its limit fails with the OOM kill as its cause.
/// </summary>
public sealed class AgentLimitTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task A_job_under_cranks_limits_runs_throttled_in_a_group_of_its_own_that_its_runtime_sees_and_that_goes_with_it()
    {
        Assert.True(OperatingSystem.IsLinux(), "cgroups are Linux's");
        var recorded = CrankTranscript.Load("limits").PostedJobs().First();
        Assert.Equal(0.5, (double)recorded["CpuLimitRatio"]!);
        Assert.Equal(268435456L, (long)recorded["MemoryLimitInBytes"]!);

        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();

        // The recorded memory limit; a tenth of the machine's CPUs rather than half (a fifth of a CPU here), so
        // that a few hundred requests use the quota up, and no cpuSet, so that only the quota limits the processors.
        var id = await client.CreateAsync(AgentClient.ServeJob("limits-1", "plaintext", port, j =>
        {
            j["Arguments"] = (string)j["Arguments"]! + " --report-runtime";
            j["CpuLimitRatio"] = 0.1;
            j["MemoryLimitInBytes"] = recorded["MemoryLimitInBytes"]!.DeepClone();
        }));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        await client.ReachAsync(id, s_wait, null, "Running");
        var processId = (int)(await client.GetAsync(id))["processId"]!;
        var group = CgroupFolders.Of(processId, "cpu");
        Assert.EndsWith($"/benchmarks-{agent.ProcessId}-job{id}", group, StringComparison.Ordinal);

        // The runtime's own report: a fifth of a CPU rounds up to 1 processor (of the machine's 2 or more); the GC may use 75% of 256 MB.
        var report = await RuntimeReportAsync(client, id);
        Assert.Contains(" processors=1 ", report, StringComparison.Ordinal);
        Assert.Contains(" memory=201326592", report, StringComparison.Ordinal);

        // Requests go on until the seconds under crank's names show throttling and at least 5 periods with work: beside
        // other work the server may get less than its fifth of a CPU for a while, and a server that never reaches its quota
        // is never throttled.
        JsonObject job;
        double throttled, periods;
        using (var http = new HttpClient())
        using (var stop = new CancellationTokenSource())
        {
            var requests = Parallel.ForAsync(0, int.MaxValue, new ParallelOptions { MaxDegreeOfParallelism = 8, CancellationToken = stop.Token }, async (_,
                token) =>
                await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/plaintext"), token));
            var waited = System.Diagnostics.Stopwatch.StartNew();
            do
            {
                await Task.Delay(TimeSpan.FromSeconds(0.5));
                job = await client.GetAsync(id);
                throttled = AgentClient.Values(job, "benchmarks/cpu/periods/throttled").Sum();
                periods = AgentClient.Values(job, "benchmarks/cpu/periods/total").Sum();
            }
            while ((throttled == 0 || periods < 5) && waited.Elapsed < TimeSpan.FromSeconds(30));

            await stop.CancelAsync();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => requests);
        }

        Assert.True(periods >= 5 && throttled >= 1, $"{throttled} of {periods} periods throttled");
        Assert.Equal(0, AgentClient.Values(job, "benchmarks/memory/oom-kills").Sum());
        var metadata = job["metadata"]!.AsArray().OfType<JsonObject>().Select(m => (string)m["name"]!).ToHashSet();
        Assert.Superset(
            new HashSet<string> { "benchmarks/cpu/periods/total", "benchmarks/cpu/periods/throttled", "benchmarks/cpu/throttled", "benchmarks/memory/oom-kills",
                "benchmarks/memory/peak" },
            metadata);

        Assert.Equal(HttpStatusCode.Accepted, await client.StopAsync(id));
        await client.ReachAsync(id, s_wait, null, "Stopped");
        Assert.True(await GoneAsync(agent.ProcessId) && !Directory.Exists(group), $"{group} is left behind");
    }

    [Fact]
    public async Task A_job_that_leaks_past_its_memory_limit_fails_with_the_oom_kill_as_its_cause()
    {
        Assert.True(OperatingSystem.IsLinux(), "cgroups are Linux's");
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.ServeJob("limits-2", "leaking", port, j =>
        {
            j["Arguments"] = (string)j["Arguments"]! + $" --plugins {TestPaths.SamplePluginDirectory}";
            j["MemoryLimitInBytes"] = 96L << 20;
        }));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        await client.ReachAsync(id, s_wait, null, "Running");

        // Each request keeps 1 MB: the limit is reached within a hundred.
        using (var http = new HttpClient())
        {
            for (var i = 0; i < 200 && (await client.StateAsync(id)) == "Running"; i++)
            {
                try
                {
                    await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/leaking"));
                }
                catch (Exception ex) when (ex is HttpRequestException or System.Net.Sockets.SocketException or IOException)
                {
                    // The server was killed mid-request, as it should be.
                }
            }
        }

        Assert.Equal("Failed", await client.WaitForStateAsync(id, s_wait, null, "Failed", "Stopped"));
        var error = (string?)(await client.GetAsync(id))["error"] ?? "";
        Assert.Contains("killed for memory: the memory limit (96 MB) was reached", error, StringComparison.Ordinal);
        await client.DeleteAsync(id);
        Assert.True(await GoneAsync(agent.ProcessId), string.Join(", ", CgroupFolders.MadeBy(agent.ProcessId, "memory")) + " left behind");
    }

    /// <summary>The server's last once-a-second runtime report in the job's output (the first comes a second after its start).</summary>
    private static async Task<string> RuntimeReportAsync(AgentClient client, int id)
    {
        for (var attempt = 0; ; attempt++)
        {
            var (_, output) = await client.GetRawAsync($"/jobs/{id}/output");
            if (output.Split('\n').LastOrDefault(l => l.StartsWith("#runtime ", StringComparison.Ordinal)) is { } report)
            {
                return report;
            }

            Assert.True(attempt < 50, "no #runtime line in 10 s of the job's output: " + output);
            await Task.Delay(TimeSpan.FromSeconds(0.2));
        }
    }

    /// <summary>Whether the agent's limit groups are all gone within 5 s (a job's group is removed just after its state says it ended).</summary>
    private static async Task<bool> GoneAsync(int agent)
    {
        for (var attempt = 0; attempt < 25 && CgroupFolders.MadeBy(agent, "memory").Count > 0; attempt++)
        {
            await Task.Delay(TimeSpan.FromSeconds(0.2));
        }

        return CgroupFolders.MadeBy(agent, "memory").Count == 0;
    }
}

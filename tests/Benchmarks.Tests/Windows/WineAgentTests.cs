using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Windows;

/// <summary>
/// The agent's Windows paths under Wine: a job as the real crank controller posted it
/// (pipelined.jsonl, its program the win-x64 host) runs, is measured by the Windows metrics and
/// stops; a job whose program starts a child is measured as one tree (Toolhelp); and the agent
/// runs as a Windows service under Wine's service manager, from <c>sc create</c> to <c>sc delete</c>.
/// </summary>
[Collection(Wine.Name)]
public sealed class WineAgentTests(WinePrefix wine)
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task Cranks_pipelined_run_replays_against_the_windows_agent_and_is_measured_by_the_windows_metrics()
    {
        await using var agent = await StartAgentAsync();
        using var client = new AgentClient(agent.Url);
        var info = JsonNode.Parse((await client.GetRawAsync("/info")).Body)!;
        Assert.Equal("Windows", (string?)info["os"]);

        // crank's recorded run, call by call; its jobs run the Windows build's program instead of building the project
        // (Wine has no .NET SDK): the application serves, the load loads it, each answer is checked as crank reads it.
        var log = new List<string>();
        using var replay = new TranscriptReplay(agent.Url, log.Add);
        await replay.RunAsync(CrankTranscript.Load("pipelined"), editJob: job =>
        {
            job["Executable"] = WinePrefix.WindowsPath(wine.Executable);
            job["Project"] = null;
            if (job["Sources"]?["default"] is JsonObject source)
            {
                source["Project"] = null;
            }

            return job;
        });
        Assert.True(replay.Problems.Count == 0,
            string.Join(Environment.NewLine, replay.Problems.Concat(["the agent's last lines:"]).Concat(agent.Output.Split(Environment.NewLine).TakeLast(30))));
        var application = replay.Jobs.Where(j => (int)j.Value["id"]! == replay.IdOf(1)).OrderBy(j => j.Key).Last().Value;
        var load = replay.Jobs.Where(j => (int)j.Value["id"]! == replay.IdOf(2)).OrderBy(j => j.Key).Last().Value;
        Assert.True(AgentClient.Values(load, "http/requests").Sum() > 0, "the load job reported no requests");
        Assert.True(AgentClient.Values(application, "benchmarks/working-set").Max() > 10, "the server's working set, read by the Windows metrics");
        Assert.InRange(AgentClient.Values(application, "machine/cpu/idle").Last(), 0, 100);
        Assert.Empty(wine.Processes("serve --scenario pipelined"));
    }

    [Fact]
    public async Task A_job_whose_program_starts_a_child_is_measured_with_the_child()
    {
        await using var agent = await StartAgentAsync();
        using var client = new AgentClient(agent.Url);
        var port = Benchmarks.Host.Platform.LoopbackPort.Free();

        // cmd.exe is the job's process; the server is its child: only the process tree holds the server's memory.
        var id = await client.CreateAsync(AgentClient.Job("application", "wine-tree", j =>
        {
            j["Executable"] = @"C:\windows\system32\cmd.exe";
            j["Arguments"] = $"/c {WinePrefix.WindowsPath(wine.Executable)} serve --scenario plaintext --server sockets --urls http://127.0.0.1:{port}";
            j["Port"] = port;
            j["ReadyStateText"] = "Application started.";
            j["Endpoints"] = new JsonArray(agent.Url.ToString());
        }));
        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        await client.ReachAsync(id, s_wait, null, "Running");
        var measured = await MeasuredAsync(client, id);
        Assert.True(AgentClient.Values(measured, "benchmarks/working-set").Max() > 20,
            $"cmd.exe alone holds a few MB; with its .NET child, tens: {AgentClient.Values(measured, "benchmarks/working-set").Max()} MB");
        Assert.Equal(HttpStatusCode.Accepted, await client.StopAsync(id));
        await client.ReachAsync(id, s_wait, null, "Stopped");
        Assert.Empty(wine.Processes($"--urls http://127.0.0.1:{port}"));
    }

    [Fact]
    public async Task The_agent_runs_as_a_windows_service_from_create_to_delete()
    {
        var port = Benchmarks.Host.Platform.LoopbackPort.Free();
        const string name = "BenchmarksAgent";
        await wine.RunAsync(s_wait, "wine", "sc", "delete", name);
        var create = await wine.RunAsync(s_wait, "wine", "sc", "create", name, "binPath=",
            $"{WinePrefix.WindowsPath(wine.Executable)} agent --windows-service --allow-local-users --url http://127.0.0.1:{port}");
        Assert.True(create.ExitCode == 0, create.ToString());
        HostRun? delete = null;
        try
        {
            var start = await wine.RunAsync(s_wait, "wine", "sc", "start", name);
            Assert.True(start.ExitCode == 0, start.ToString());
            Assert.Equal("RUNNING", await StateAsync(name, "RUNNING"));
            // RUNNING is reported as the host starts; its listener follows within moments.
            using (var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) })
            {
                string? body = null;
                for (var attempt = 0; attempt < 50 && body is null; attempt++)
                {
                    try
                    {
                        body = await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/info"));
                    }
                    catch (HttpRequestException)
                    {
                        await Task.Delay(200);
                    }
                }

                Assert.Equal("Windows", (string?)JsonNode.Parse(body ?? "{}")!["os"]);
            }

            // Wine's sc once failed a stop (exit 1, no output) on a service just RUNNING: asked again
            // for up to 5 s, and a service that never takes the stop still fails here with every answer.
            var stop = await wine.RunAsync(s_wait, "wine", "sc", "stop", name);
            var stops = new List<string> { stop.ToString() };
            for (var attempt = 0; stop.ExitCode != 0 && attempt < 10; attempt++)
            {
                await Task.Delay(500);
                stop = await wine.RunAsync(s_wait, "wine", "sc", "stop", name);
                stops.Add(stop.ToString());
            }

            Assert.True(stop.ExitCode == 0, string.Join("\n", stops));
            Assert.Equal("STOPPED", await StateAsync(name, "STOPPED"));

            // The process ends just after it reports STOPPED (its host returns from the service's main).
            var ended = System.Diagnostics.Stopwatch.StartNew();
            while (wine.Processes($"--url http://127.0.0.1:{port}").Count > 0 && ended.Elapsed < TimeSpan.FromSeconds(10))
            {
                await Task.Delay(200);
            }

            Assert.Empty(wine.Processes($"--url http://127.0.0.1:{port}"));
        }
        finally
        {
            // Judged below, not here: a service stuck in STOP_PENDING cannot be deleted, and that failure would hide the cause.
            delete = await wine.RunAsync(s_wait, "wine", "sc", "delete", name);
        }

        Assert.True(delete.ExitCode == 0, delete.ToString());
    }

    /// <remarks>
    /// With <c>--driver-timeout 60s</c>: under Wine on a machine the parallel tests keep 100% busy, a keep-alive can wait
    /// longer than crank's 10 s in the agent's queue, and the agent then deletes a job its controller never left (the
    /// timeout itself is tested natively). With <c>--allow-local-users</c>: the tests' client is a Linux process, whose account Wine's socket table cannot
    /// name (it knows only its own processes), so the agent's default would refuse it as an unknown local account.
    /// </remarks>
    private Task<AgentProcess> StartAgentAsync() =>
        AgentProcess.StartAsync(options: ["--allow-local-users", "--driver-timeout", "60s"],
            jobsDirectory: WinePrefix.WindowsPath(TestPaths.NewTempDirectory()), environment: wine.Environment, executable: wine.Executable,
            launcher: ["wine"]);

    /// <summary>The job once it has reported two intervals' measurements (the Windows metrics each second).</summary>
    private static async Task<JsonObject> MeasuredAsync(AgentClient client, int id)
    {
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            var job = await client.GetAsync(id);
            if (AgentClient.Values(job, "benchmarks/cpu").Count >= 2 || waited.Elapsed > TimeSpan.FromSeconds(20))
            {
                return job;
            }

            await Task.Delay(500);
        }
    }

    /// <summary>The service's state as <c>sc query</c> prints it, once it is <paramref name="expected"/> or 20 s have passed.</summary>
    private async Task<string> StateAsync(string name, string expected)
    {
        var state = "";
        for (var attempt = 0; attempt < 40 && state != expected; attempt++)
        {
            var query = await wine.RunAsync(s_wait, "wine", "sc", "query", name);
            state = query.Output.Split('\n').Where(l => l.Contains("STATE", StringComparison.Ordinal)).Select(l => l.Trim().Split(' ',
                StringSplitOptions.RemoveEmptyEntries).Last()).FirstOrDefault() ?? "";
            if (state != expected)
            {
                await Task.Delay(500);
            }
        }

        return state;
    }
}

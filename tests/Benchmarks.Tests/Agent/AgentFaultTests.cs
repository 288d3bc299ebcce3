using Benchmarks.Host.Platform;
using System.Diagnostics;
using Benchmarks.Tests.Integration;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>Jobs that go wrong: a server killed under load, a job that never gets ready, a job past the agent's time limit.</summary>
public sealed class AgentFaultTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task A_server_that_dies_under_load_fails_its_job_and_the_load_job_fails_with_its_errors()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var server = await client.CreateAsync(AgentClient.Job("application", "crash", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario plaintext --server sockets --urls http://127.0.0.1:{port}";
            j["ReadyStateText"] = "Application started.";
        }));
        await client.LaunchAsync(server, Wait);
        await client.WaitForStateAsync(server, Wait, null, "Running");
        var load = await client.CreateAsync(AgentClient.Job("load", "crash", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"load --url http://127.0.0.1:{port}/plaintext --connections 8 --duration 10s --warmup 0s --crank-statistics --progress";
            j["IsConsoleApp"] = true;
            j["WaitForExit"] = true;
        }));
        await client.LaunchAsync(load, Wait, [server]);
        await client.WaitForStateAsync(load, Wait, [server], "Running");

        // Once the load has counted responses in its window (on a busy machine its start takes a while).
        var deadline = DateTime.UtcNow + Wait;
        while (!System.Text.RegularExpressions.Regex.IsMatch((await client.GetRawAsync($"/jobs/{load}/output")).Body, @"#load second \d+ [1-9]"))
        {
            Assert.True(DateTime.UtcNow < deadline, "the load counted no response in a minute");
            await client.TouchAsync(server);
            await Task.Delay(200);
        }

        // The crash: SIGKILL, no chance to drain.
        using (var victim = Process.GetProcessById((int)(await client.GetAsync(server))["processId"]!))
        {
            victim.Kill();
        }

        Assert.Equal("Failed", await client.WaitForStateAsync(server, Wait, [load], "Failed", "Stopped"));
        Assert.Contains("exit code", (string)(await client.GetAsync(server))["error"]!, StringComparison.Ordinal);

        Assert.Equal("Failed", await client.WaitForStateAsync(load, Wait, [server], "Failed", "Stopped"));
        var loadJob = await client.GetAsync(load);
        var error = (string)loadJob["error"]!;
        Assert.Contains("exit code 1", error, StringComparison.Ordinal);
        var measured = AgentClient.LastMeasurements(loadJob);
        Assert.True((double)measured["http/requests"]! > 0, "what was measured before the crash is kept");
        Assert.True((double)measured["http/requests/errors"]! > 0);
        await client.DeleteAsync(load);
        await client.DeleteAsync(server);
    }

    [Fact]
    public async Task A_job_whose_process_exits_at_once_always_ends_and_is_always_deleted()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);

        // Exiting before the agent has read its start time raced the runner into a job stuck in Starting.
        for (var attempt = 0; attempt < 10; attempt++)
        {
            var ok = attempt % 2 == 0;
            var id = await client.CreateAsync(AgentClient.Job("application", $"instant-{attempt}", j =>
            {
                j["Executable"] = ok ? "/bin/true" : "/bin/false";
                j["ReadyStateText"] = "never printed";
            }));
            await client.LaunchAsync(id, Wait);
            var state = await client.WaitForStateAsync(id, TimeSpan.FromSeconds(20), null, "Stopped", "Failed");
            Assert.True(state == (ok ? "Stopped" : "Failed"), $"{state}: {(await client.GetAsync(id))["error"]}");
            if (!ok)
            {
                Assert.Contains("exit code 1", (string?)(await client.GetAsync(id))["error"], StringComparison.Ordinal);
            }

            Assert.Equal(System.Net.HttpStatusCode.Accepted, await client.DeleteAsync(id));
            Assert.Equal("Deleted", await client.StateAsync(id));
            Assert.False(Directory.Exists(Path.Combine(agent.JobsDirectory, id.ToString(System.Globalization.CultureInfo.InvariantCulture))));
        }

        // A job the agent never had: 204 as crank's agent answers (the controller fails a run on any DELETE that is not 2xx),
        // and it is not created by being deleted.
        Assert.Equal(System.Net.HttpStatusCode.NoContent, await client.DeleteAsync(4242));
        Assert.Equal("404", await client.StateAsync(4242));
    }

    [Fact]
    public async Task An_upload_that_stops_arriving_is_answered_408_with_its_cause_and_leaves_no_file()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "truncated"));
        using var socket = new System.Net.Sockets.Socket(System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp);
        await socket.ConnectAsync(agent.Url.Host, agent.Url.Port);
        var head = $"POST /jobs/{id}/source HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n";
        await socket.SendAsync(System.Text.Encoding.ASCII.GetBytes(head + new string('P', 1000)));

        var buffer = new byte[4096];
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        var read = await socket.ReceiveAsync(buffer, System.Net.Sockets.SocketFlags.None, timeout.Token);
        var answer = System.Text.Encoding.ASCII.GetString(buffer, 0, read);
        Assert.StartsWith("HTTP/1.1 408 ", answer, StringComparison.Ordinal);
        Assert.Contains("the upload did not arrive whole", answer, StringComparison.Ordinal);
        var folder = Path.Combine(agent.JobsDirectory, id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Empty(Directory.Exists(folder) ? Directory.GetFiles(folder, "*", SearchOption.AllDirectories) : []);

        // The log line may reach the agent's output a moment after the answer reached the client.
        for (var wait = 0; wait < 100 && !agent.Output.Contains("the upload did not arrive whole", StringComparison.Ordinal); wait++)
        {
            await Task.Delay(50);
        }

        Assert.Contains("the upload did not arrive whole", agent.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_job_that_never_prints_its_ready_text_fails_after_its_start_timeout_and_is_stopped()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "slow", j =>
        {
            j["Executable"] = "/bin/sh";
            j["Arguments"] = "-c \"echo warming up; sleep 300\"";
            j["ReadyStateText"] = "Application started.";
            j["StartTimeout"] = "00:00:02";
        }));
        await client.WaitForStateAsync(id, Wait, null, "Initializing");
        var watch = Stopwatch.StartNew();
        await client.StartAsync(id);
        Assert.Equal("Failed", await client.WaitForStateAsync(id, Wait, null, "Failed", "Running"));
        Assert.InRange(watch.Elapsed, TimeSpan.FromSeconds(1.5), TimeSpan.FromSeconds(20));
        var job = await client.GetAsync(id);
        var error = (string)job["error"]!;
        Assert.Contains("not ready within 00:00:02", error, StringComparison.Ordinal);
        Assert.Contains("warming up", error, StringComparison.Ordinal);
        await Task.Delay(500);
        Assert.False(AgentProtocolTests.IsAlive((int)job["processId"]!), "the job that never got ready was left running");
    }

    [Fact]
    public async Task A_job_past_the_agents_time_limit_is_stopped_and_failed()
    {
        await using var agent = await AgentProcess.StartAsync(options: ["--job-time-limit", "3s"]);
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "long", j =>
        {
            j["Executable"] = "/bin/sleep";
            j["Arguments"] = "300";
            j["IsConsoleApp"] = true;
        }));
        await client.LaunchAsync(id, Wait);
        await client.WaitForStateAsync(id, Wait, null, "Running");
        var pid = (int)(await client.GetAsync(id))["processId"]!;
        Assert.Equal("Failed", await client.WaitForStateAsync(id, Wait, null, "Failed"));
        Assert.Contains("time limit", (string)(await client.GetAsync(id))["error"]!, StringComparison.Ordinal);

        // Gone within seconds: a loaded machine once took longer than a fixed half second to reap it.
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (AgentProtocolTests.IsAlive(pid) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100);
        }

        Assert.False(AgentProtocolTests.IsAlive(pid), $"the job's process {pid} was still running 10 s after the job failed");
    }

    [Fact]
    public async Task A_cpu_set_pins_the_job_and_a_cpu_the_machine_lacks_fails_the_job()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var pinned = await client.CreateAsync(AgentClient.Job("application", "pin", j =>
        {
            j["Executable"] = "/bin/sleep";
            j["Arguments"] = "300";
            j["IsConsoleApp"] = true;
            j["CpuSet"] = "1";
        }));
        await client.LaunchAsync(pinned, Wait);
        await client.WaitForStateAsync(pinned, Wait, null, "Running");
        var pid = (int)(await client.GetAsync(pinned))["processId"]!;
        var status = await File.ReadAllLinesAsync($"/proc/{pid}/status");
        Assert.Equal("1", status.Single(l => l.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal)).Split(':')[1].Trim());

        var impossible = await client.CreateAsync(AgentClient.Job("load", "pin", j =>
        {
            j["Executable"] = "/bin/true";
            j["IsConsoleApp"] = true;
            j["CpuSet"] = "4096";
        }));
        await client.LaunchAsync(impossible, Wait, [pinned]);
        Assert.Equal("Failed", await client.WaitForStateAsync(impossible, Wait, [pinned], "Failed", "Stopped"));
        Assert.StartsWith("cpuSet '4096'", (string)(await client.GetAsync(impossible))["error"]!, StringComparison.Ordinal);
        await client.DeleteAsync(impossible);
        await client.DeleteAsync(pinned);
    }
}

using Benchmarks.Host.Platform;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Integration;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// <c>benchmarks agent</c> as a real process, driven through crank's agent protocol call by call
/// (the controller's sequence from crank-agent-protocol.md §3), with real jobs: our server
/// binary, shell scripts and a real dotnet build.
/// </summary>
public sealed class AgentProtocolTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task A_server_job_goes_through_the_controllers_sequence_and_is_echoed_measured_stopped_and_deleted()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);

        var (infoStatus, infoBody) = await client.GetRawAsync("/info");
        Assert.Equal(HttpStatusCode.OK, infoStatus);
        var info = JsonNode.Parse(infoBody)!.AsObject();
        Assert.Equal("Linux", (string?)info["os"]);
        Assert.Equal("X64", (string?)info["arch"]);
        Assert.Equal(Environment.ProcessorCount, (int)info["proc"]!);

        var port = LoopbackPort.Free();
        var job = AgentClient.Job("application", "run-1", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario plaintext --server kestrel --urls http://127.0.0.1:{port}";
            j["Port"] = port;
            j["Path"] = "/plaintext";
            j["Custom"] = new JsonObject { ["Kept"] = "as sent" };
        });
        var (status, location) = await client.PostJobAsync(job);
        Assert.Equal(HttpStatusCode.Accepted, status);
        Assert.Matches("^/jobs/[0-9]+$", location);
        var id = int.Parse(location!["/jobs/".Length..], CultureInfo.InvariantCulture);

        Assert.Equal("Initializing", await client.WaitForStateAsync(id, Wait, null, "Initializing"));
        var (listStatus, list) = await client.GetRawAsync("/jobs");
        Assert.Equal(HttpStatusCode.OK, listStatus);
        var listed = JsonNode.Parse(list)!.AsArray().Single(j => (int)j!["id"]! == id)!;
        Assert.Equal("run-1", (string?)listed["runId"]);
        Assert.Equal("Initializing", (string?)listed["state"]);

        var echoed = await client.GetAsync(id);
        Assert.Equal(5, (int)echoed["serverVersion"]!);
        Assert.Equal("Linux", (string?)echoed["operatingSystem"]);
        Assert.Equal(id, (int)echoed["id"]!);
        Assert.Equal("as sent", (string?)echoed["custom"]!["Kept"]);
        Assert.NotNull(echoed["options"]);
        Assert.False((bool)echoed["options"]!["DisplayOutput"]!);
        Assert.Null(echoed["source"]);

        Assert.Equal(HttpStatusCode.OK, await client.StartAsync(id));
        await client.ReachAsync(id, Wait, null, "Running");
        echoed = await client.GetAsync(id);
        Assert.Equal($"http://127.0.0.1:{port}/plaintext", (string?)echoed["url"]);
        var serverPid = (int)echoed["processId"]!;
        Assert.True(serverPid > 0);
        using (var http = new HttpClient())
        {
            Assert.Equal("Hello, World!", await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/plaintext")));
        }

        // Measurements pushed over HTTP join the agent's own samples.
        Assert.Equal(HttpStatusCode.OK,
            await client.PostAsync($"/jobs/{id}/metadata?name=custom%2Fpushed&aggregate=Max&reduce=Sum&format=n0&shortDescription=Pushed"));
        Assert.Equal(HttpStatusCode.OK, await client.PostAsync($"/jobs/{id}/measurement?name=custom%2Fpushed&timestamp=2026-11-21T10:00:00Z&value=7"));
        const string blockJson = """{"Metadata":""" +
            """[{"Name":"custom/block","Aggregate":"Avg","Reduce":"Avg","Format":"n1","ShortDescription":"Block"}],"Measurements":""" +
            """[{"Timestamp":"2026-11-21T10:00:00Z","Name":"custom/block","Value":2.5}]}""";
        using (var statistics = new StringContent(blockJson, Encoding.UTF8, "application/json"))
        {
            Assert.Equal(HttpStatusCode.OK, await client.PostAsync($"/jobs/{id}/statistics", statistics));
        }

        await Task.Delay(TimeSpan.FromSeconds(2.5));
        echoed = await client.GetAsync(id);
        var values = AgentClient.LastMeasurements(echoed);
        foreach (var name in new[] { "benchmarks/cpu", "benchmarks/cpu/user", "benchmarks/cpu/kernel", "benchmarks/working-set", "machine/cpu/user",
            "machine/cpu/kernel", "machine/cpu/idle", "net/rx", "net/tx", "benchmarks/start-time", "benchmarks/build-time" })
        {
            Assert.True(values.ContainsKey(name), $"no {name} among {string.Join(", ", values.Keys)}");
        }

        Assert.True((double)values["benchmarks/working-set"]! > 10);
        Assert.Equal(7, (double)values["custom/pushed"]!);
        Assert.Equal(2.5, (double)values["custom/block"]!);
        var metadata = echoed["metadata"]!.AsArray().OfType<JsonObject>().ToDictionary(m => (string)m["name"]!);
        Assert.Equal("Max", (string?)metadata["benchmarks/cpu"]!["aggregate"]);
        Assert.Equal("Avg", (string?)metadata["benchmarks/cpu/kernel"]!["aggregate"]);
        Assert.Equal("Sum", (string?)metadata["custom/pushed"]!["reduce"]);
        Assert.Equal("Block", (string?)metadata["custom/block"]!["shortDescription"]);
        Assert.NotNull(metadata["machine/cpu/idle"]!["format"]);

        // /measurements/flush drops everything up to the first delimiter.
        Assert.Equal(HttpStatusCode.OK, await client.PostAsync($"/jobs/{id}/measurement?name=%24%24Delimiter%24%24&value=0"));
        Assert.Equal(HttpStatusCode.OK, await client.PostAsync($"/jobs/{id}/measurements/flush"));
        Assert.DoesNotContain("custom/pushed", AgentClient.LastMeasurements(await client.GetAsync(id)).Keys);

        await client.StopAsync(id);
        await client.ReachAsync(id, Wait, null, "Stopped");
        Assert.False(IsAlive(serverPid), "the server process outlived its stop");
        var (outputStatus, output) = await client.GetRawAsync($"/jobs/{id}/output");
        Assert.Equal(HttpStatusCode.OK, outputStatus);
        Assert.Contains("Application started.", output, StringComparison.Ordinal);
        var (_, lines) = await client.GetRawAsync($"/jobs/{id}/output/1");
        Assert.Equal(JsonNode.Parse(lines)!.AsArray().Count, output.Split(Environment.NewLine).Length - 1);

        Assert.Equal(HttpStatusCode.Accepted, await client.DeleteAsync(id));
        Assert.Equal("Deleted", await client.StateAsync(id));
        Assert.False(Directory.Exists(Path.Combine(agent.JobsDirectory, id.ToString(CultureInfo.InvariantCulture))), "the job folder was left behind");
        Assert.Equal(HttpStatusCode.OK, (await client.GetRawAsync($"/jobs/{id}")).Status);
        Assert.Equal(HttpStatusCode.NoContent, await client.DeleteAsync(9999));
        Assert.Equal(HttpStatusCode.InternalServerError, await client.StartAsync(id));
    }

    [Fact]
    public async Task A_job_with_a_bad_driver_version_or_an_id_is_refused()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.PostJobAsync(AgentClient.Job("a", "r", j => j["DriverVersion"] = 0))).Status);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.PostJobAsync(AgentClient.Job("a", "r", j => j["Id"] = 4))).Status);
        Assert.Equal(HttpStatusCode.BadRequest, (await client.PostJobAsync(AgentClient.Job("a", "r", j => j["State"] = "Running"))).Status);
        Assert.Equal("404", await client.StateAsync(1));
    }

    [Fact]
    public async Task Statistics_blocks_on_stdout_and_a_child_process_on_stderr_are_read_and_the_child_is_stopped_too()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        const string block = """{"Metadata":""" +
            """[{"Source":"script","Name":"custom/value","Aggregate":"Max","Reduce":"Max","Format":"n0","ShortDescription":"Custom value"}],"Measurements":""" +
            """[{"Timestamp":"2026-11-21T10:00:00Z","Name":"custom/value","Value":42}]}""";
        var script = $"sleep 300 & echo \"##ChildProcessId:$!\" >&2; echo 'noise #StartJobStatistics'; echo '{block}'; echo '#EndJobStatistics trailing'; " +
            $"echo '#StartJobStatistics'; echo 'not json'; echo '#EndJobStatistics'; echo 'Now Ready' >&2; wait";
        var id = await client.CreateAsync(AgentClient.Job("application", "run-2", j =>
        {
            j["Executable"] = "/bin/sh";
            j["Arguments"] = $"-c \"{script.Replace("\"", "\\\"", StringComparison.Ordinal)}\"";
            j["ReadyStateText"] = "now ready";
        }));
        await client.LaunchAsync(id, Wait);
        await client.ReachAsync(id, Wait, null, "Running");

        var job = await client.GetAsync(id);
        var child = (int)job["childProcessId"]!;
        Assert.True(child > 0 && child != (int)job["processId"]!);
        Assert.True(IsAlive(child));
        Assert.Equal(42, (double)AgentClient.LastMeasurements(job)["custom/value"]!);
        Assert.Contains(job["metadata"]!.AsArray(), m => (string?)m!["name"] == "custom/value" && (string?)m["shortDescription"] == "Custom value");
        var (_, output) = await client.GetRawAsync($"/jobs/{id}/output");
        Assert.Contains("[STDERR] ##ChildProcessId:", output, StringComparison.Ordinal);

        await client.StopAsync(id);
        await client.ReachAsync(id, Wait, null, "Stopped");
        Assert.False(IsAlive(child), "the job's child process outlived the stop");
        Assert.False(IsAlive((int)job["processId"]!));
        await client.DeleteAsync(id);
    }

    [Fact]
    public async Task A_job_that_names_a_process_it_did_not_start_is_not_believed_and_stopping_it_spares_that_process()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "run-foreign", j =>
        {
            j["Executable"] = "/bin/sh";
            j["Arguments"] = $"-c \"echo '##ChildProcessId:{agent.ProcessId}' >&2; echo '##ChildProcessId:1' >&2; echo 'Now Ready' >&2; sleep 300\"";
            j["ReadyStateText"] = "now ready";
        }));
        await client.LaunchAsync(id, Wait);
        await client.ReachAsync(id, Wait, null, "Running");
        var job = await client.GetAsync(id);
        Assert.NotEqual(agent.ProcessId, (int?)job["childProcessId"] ?? 0);
        Assert.NotEqual(1, (int?)job["childProcessId"] ?? 0);
        var (_, output) = await client.GetRawAsync($"/jobs/{id}/output");
        Assert.Contains($"##ChildProcessId {agent.ProcessId} ignored: not a process this job started", output, StringComparison.Ordinal);

        await client.StopAsync(id);
        await client.ReachAsync(id, Wait, null, "Stopped");
        Assert.False(agent.HasExited, "stopping the job ended the agent it named");
        Assert.Equal(HttpStatusCode.OK, (await client.GetRawAsync("/info")).Status);
        await client.DeleteAsync(id);
    }

    [Fact]
    public async Task A_server_that_crashes_mid_run_is_failed_with_its_exit_code_and_last_output()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "run-3", j =>
        {
            j["Executable"] = "/bin/sh";
            j["Arguments"] = "-c \"echo listening; sleep 1.5; echo 'fatal: out of descriptors' >&2; exit 3\"";
            j["ReadyStateText"] = "listening";
        }));
        await client.LaunchAsync(id, Wait);
        await client.ReachAsync(id, Wait, null, "Running");
        Assert.Equal("Failed", await client.WaitForStateAsync(id, Wait, null, "Failed", "Stopped"));
        var job = await client.GetAsync(id);
        Assert.Equal(3, (int)job["exitCode"]!);
        var error = (string)job["error"]!;
        Assert.Contains("exit code 3", error, StringComparison.Ordinal);
        Assert.Contains("fatal: out of descriptors", error, StringComparison.Ordinal);
        await client.DeleteAsync(id);
        Assert.Equal("Deleted", await client.StateAsync(id));
    }

    [Fact]
    public async Task A_build_error_reaches_the_job_error_with_the_compiler_message()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "run-4", j =>
        {
            j["Project"] = "app/Broken.csproj";
            j["Sources"] = new JsonObject { ["app"] = new JsonObject { ["LocalFolder"] = "/somewhere/app", ["DestinationFolder"] = null } };
        }));
        await client.WaitForStateAsync(id, Wait, null, "Initializing");
        var zip = AgentClient.Zip(
            ("Broken.csproj",
                """<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType>""" +
                """<TargetFramework>net10.0</TargetFramework></PropertyGroup></Project>"""),
            ("Program.cs", "internal static class Program { private static void Main() { int count = \"three\"; } }"));
        Assert.Equal(HttpStatusCode.OK, await client.UploadSourceAsync(id, "app", zip));
        await client.StartAsync(id);
        Assert.Equal("Failed", await client.WaitForStateAsync(id, TimeSpan.FromMinutes(4), null, "Failed", "Running"));
        var error = (string)(await client.GetAsync(id))["error"]!;
        Assert.Contains("the build failed", error, StringComparison.Ordinal);
        Assert.Contains("error CS0029", error, StringComparison.Ordinal);
        var (_, buildLog) = await client.GetRawAsync($"/jobs/{id}/buildlog");
        Assert.Contains("Program.cs", buildLog, StringComparison.Ordinal);
        await client.DeleteAsync(id);
    }

    [Fact]
    public async Task A_job_that_asks_for_an_sdk_the_machine_lacks_fails_at_once_naming_what_is_installed()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "run-5", j =>
        {
            j["Project"] = "app/App.csproj";
            j["SdkVersion"] = "6.0.100";
        }));
        await client.WaitForStateAsync(id, Wait, null, "Initializing");
        var watch = Stopwatch.StartNew();
        await client.StartAsync(id);
        Assert.Equal("Failed", await client.WaitForStateAsync(id, Wait, null, "Failed", "Running"));
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"took {watch.Elapsed}");
        var error = (string)(await client.GetAsync(id))["error"]!;
        Assert.Contains("6.0.100", error, StringComparison.Ordinal);
        Assert.Contains("installed SDKs: 10.", error, StringComparison.Ordinal);
        Assert.Contains("never downloads", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Jobs_of_one_run_start_together_while_another_run_waits_until_the_first_is_deleted()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        JsonObject Sleeper(string service, string run) => AgentClient.Job(service, run, j =>
        {
            j["Executable"] = "/bin/sh";
            j["Arguments"] = "-c \"echo up; sleep 300\"";
            j["ReadyStateText"] = "up";
        });
        var first = await client.CreateAsync(Sleeper("application", "run-a"));
        var other = await client.CreateAsync(Sleeper("application", "run-b"));
        var second = await client.CreateAsync(Sleeper("load", "run-a"));
        await client.WaitForStateAsync(second, Wait, null, "Initializing");
        Assert.Equal("Initializing", await client.StateAsync(first));
        Assert.Equal("New", await client.StateAsync(other));

        await client.StartAsync(first);
        await client.StartAsync(second);
        await client.WaitForStateAsync(first, Wait, null, "Running");
        await client.WaitForStateAsync(second, Wait, null, "Running");
        Assert.Equal("New", await client.StateAsync(other));

        await client.DeleteAsync(first);
        await Task.Delay(500);
        Assert.Equal("New", await client.StateAsync(other));
        await client.DeleteAsync(second);
        Assert.Equal("Initializing", await client.WaitForStateAsync(other, Wait, null, "Initializing"));
        await client.DeleteAsync(other);
    }

    [Fact]
    public async Task A_silent_controllers_jobs_are_stopped_deleted_and_cleaned_up_within_the_driver_timeout()
    {
        await using var agent = await AgentProcess.StartAsync(options: ["--driver-timeout", "3s"]);
        using var client = new AgentClient(agent.Url);
        var port = LoopbackPort.Free();
        var id = await client.CreateAsync(AgentClient.Job("application", "run-6", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario plaintext --urls http://127.0.0.1:{port}";
            j["ReadyStateText"] = "Application started.";
        }));
        await client.LaunchAsync(id, Wait);
        await client.WaitForStateAsync(id, Wait, null, "Running");
        var pid = (int)(await client.GetAsync(id))["processId"]!;

        // The controller dies: no more /state or /touch. GET /jobs does not count as contact.
        var watch = Stopwatch.StartNew();
        while (IsAlive(pid) && watch.Elapsed < TimeSpan.FromSeconds(20))
        {
            await Task.Delay(250);
            await client.GetRawAsync("/jobs");
        }

        Assert.False(IsAlive(pid), "the server of a silent controller was not stopped");
        Assert.InRange(watch.Elapsed, TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(12));
        await Task.Delay(500);
        Assert.Equal("Deleted", await client.StateAsync(id));
        Assert.False(Directory.Exists(Path.Combine(agent.JobsDirectory, id.ToString(CultureInfo.InvariantCulture))));
        Assert.Contains("no contact from its controller", agent.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_agent_restarted_after_a_crash_ends_the_processes_it_left_and_takes_new_jobs()
    {
        var jobs = TestPaths.NewTempDirectory();
        int leftover;
        var agent = await AgentProcess.StartAsync(jobsDirectory: jobs);
        using (var client = new AgentClient(agent.Url))
        {
            var id = await client.CreateAsync(AgentClient.Job("application", "run-7", j =>
            {
                j["Executable"] = "/bin/sleep";
                j["Arguments"] = "300";
                j["IsConsoleApp"] = true;
            }));
            await client.LaunchAsync(id, Wait);
            await client.WaitForStateAsync(id, Wait, null, "Running");
            leftover = (int)(await client.GetAsync(id))["processId"]!;
        }

        await agent.KillAsync();
        await agent.DisposeAsync();
        Assert.True(IsAlive(leftover), "SIGKILL of the agent should leave its job running (this is the case under test)");

        await using var restarted = await AgentProcess.StartAsync(jobsDirectory: jobs);
        Assert.False(IsAlive(leftover), "the restarted agent left the previous job's process running");
        Assert.DoesNotContain(Directory.GetDirectories(jobs), d => Path.GetFileName(d) != "builds");
        using var again = new AgentClient(restarted.Url);
        var fresh = await again.CreateAsync(AgentClient.Job("application", "run-8", j =>
        {
            j["Executable"] = "/bin/true";
            j["IsConsoleApp"] = true;
        }));
        Assert.Equal("Initializing", await again.WaitForStateAsync(fresh, Wait, null, "Initializing"));
    }

    [Fact]
    public async Task Under_systemd_the_agent_reports_ready_and_stopping_on_the_notify_socket()
    {
        var directory = TestPaths.NewTempDirectory();
        var path = Path.Combine(directory, "notify.sock");
        using var socket = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.Unix, System.Net.Sockets.SocketType.Dgram,
            System.Net.Sockets.ProtocolType.Unspecified);
        socket.Bind(new System.Net.Sockets.UnixDomainSocketEndPoint(path));
        // As systemd starts a service: $NOTIFY_SOCKET, output to the journal, and a parent process named systemd
        // (what the hosting library checks): a copy of the shell, mode and all, by that name, passing on the stop signal.
        var manager = Path.Combine(directory, "systemd");
        File.Copy("/bin/sh", manager);
        var agent = await AgentProcess.StartAsync(
            environment: new Dictionary<string, string> { ["NOTIFY_SOCKET"] = path, ["JOURNAL_STREAM"] = "8:12345" },
            launcher: [manager, "-c", "trap 'kill -TERM $child' TERM; \"$0\" \"$@\" & child=$!; wait $child; wait $child"]);
        var buffer = new byte[1024];
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        var received = await socket.ReceiveAsync(buffer, System.Net.Sockets.SocketFlags.None, timeout.Token);
        var ready = Encoding.UTF8.GetString(buffer, 0, received);
        Assert.Contains("READY=1", ready, StringComparison.Ordinal);
        received = await socket.ReceiveAsync(buffer, System.Net.Sockets.SocketFlags.None, timeout.Token);
        Assert.StartsWith("STATUS=listening on http://127.0.0.1:", Encoding.UTF8.GetString(buffer, 0, received), StringComparison.Ordinal);

        Assert.Equal(0, await agent.StopAsync());
        received = await socket.ReceiveAsync(buffer, System.Net.Sockets.SocketFlags.None, timeout.Token);
        Assert.Equal("STOPPING=1", Encoding.UTF8.GetString(buffer, 0, received));

        // With output going to the journal, each log line carries its syslog priority.
        Assert.Contains(agent.Output.Split(Environment.NewLine),
            l => l.StartsWith("<6>", StringComparison.Ordinal) && l.Contains("Stopping: ending every job", StringComparison.Ordinal));
        await agent.DisposeAsync();
    }

    internal static bool IsAlive(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited && !File.ReadAllText($"/proc/{pid}/stat").Split(')')[1].TrimStart().StartsWith('Z');
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or IOException)
        {
            return false;
        }
    }
}

using Benchmarks.Host.Platform;
using System.Diagnostics;
using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;
using Benchmarks.Tests.Integration;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>What the agent refuses: escaping zip entries and paths, oversized uploads, peers outside the allow-list.</summary>
public sealed class AgentSecurityTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Zip_slip_entries_and_paths_out_of_the_job_folder_are_refused_and_nothing_is_written()
    {
        var outside = Path.Combine(Path.GetTempPath(), "benchmarks-tests", "escaped-" + Guid.NewGuid().ToString("n"));
        await using var agent = await AgentProcess.StartAsync(options: ["--max-upload-mb", "1"]);
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "run-s", j =>
        {
            j["Executable"] = "/bin/true";
            j["Sources"] = new System.Text.Json.Nodes.JsonObject { ["app"] = new System.Text.Json.Nodes.JsonObject { ["LocalFolder"] = "/x" } };
        }));
        await client.WaitForStateAsync(id, Wait, null, "Initializing");
        var jobFolder = Path.Combine(agent.JobsDirectory, id.ToString(System.Globalization.CultureInfo.InvariantCulture));

        // One good entry before the bad one: the whole archive is refused, not half-extracted.
        var relative = Path.GetRelativePath(Path.Combine(jobFolder, "src", "app"), outside);
        var slip = AgentClient.Zip(("good.txt", "fine"), (relative + "/evil.txt", "escaped"));
        Assert.Equal(HttpStatusCode.BadRequest, await client.UploadSourceAsync(id, "app", slip));
        Assert.False(Directory.Exists(outside), "a zip entry escaped the job folder");
        Assert.False(File.Exists(Path.Combine(jobFolder, "src", "app", "good.txt")));
        Assert.Equal(HttpStatusCode.BadRequest, await client.UploadSourceAsync(id, "app", AgentClient.Zip(("/etc/evil.txt", "absolute"))));
        Assert.Equal(HttpStatusCode.BadRequest, await client.UploadBuildFileAsync(id, "../../../escaped.txt", [1, 2, 3]));
        Assert.Contains("leads outside the job folder", agent.Output, StringComparison.Ordinal);

        // A legitimate upload and build file still work and can be listed and downloaded.
        Assert.Equal(HttpStatusCode.OK, await client.UploadSourceAsync(id, "app", AgentClient.Zip(("notes/readme.txt", "hello"))));
        Assert.Equal(HttpStatusCode.OK, await client.UploadBuildFileAsync(id, "app/extra.json", "{}"u8.ToArray()));
        // Before a build, crank's paths name the uploaded sources (no published folder yet).
        var (downloadStatus, content) = await client.GetRawAsync($"/jobs/{id}/download?path=app/notes/readme.txt");
        Assert.Equal(HttpStatusCode.OK, downloadStatus);
        Assert.Equal("hello", content);
        var (listStatus, listing) = await client.GetRawAsync($"/jobs/{id}/list?path=app/");
        Assert.Equal(HttpStatusCode.OK, listStatus);
        Assert.Contains("\"app/extra.json\"", listing, StringComparison.Ordinal);
        Assert.Equal("[\"app/extra.json\"]", (await client.GetRawAsync($"/jobs/{id}/list?path=app/*.json")).Body);
        Assert.Equal("[]", (await client.GetRawAsync($"/jobs/{id}/list?path=nowhere/*.json")).Body);

        // A file's name lists that file alone, or nothing when there is none.
        Assert.Equal("[\"app/extra.json\"]", (await client.GetRawAsync($"/jobs/{id}/list?path=app/extra.json")).Body);
        Assert.Equal("[]", (await client.GetRawAsync($"/jobs/{id}/list?path=app/missing.dll")).Body);

        // A measurement JSON cannot hold is refused, and the job still answers.
        foreach (var value in new[] { "NaN", "1e999", "-Infinity" })
        {
            Assert.Equal(HttpStatusCode.BadRequest, await client.PostAsync($"/jobs/{id}/measurement?name=x&value={value}"));
        }

        Assert.Equal(HttpStatusCode.OK, await client.PostAsync($"/jobs/{id}/measurement?name=x&value=1.5"));
        Assert.Equal(HttpStatusCode.OK, (await client.GetRawAsync($"/jobs/{id}")).Status);

        foreach (var path in new[] { "/download?path=../../etc/passwd", "/download?path=/etc/passwd", "/download?path=app/../../../../etc/passwd",
            "/download?path=~/../../etc/passwd", "/list?path=../..", "/list?path=/etc", "/list?path=../*", "/list?path=~/../../*" })
        {
            var (status, body) = await client.GetRawAsync($"/jobs/{id}{path}");
            Assert.Equal(HttpStatusCode.BadRequest, status);
            Assert.DoesNotContain("root:", body, StringComparison.Ordinal);
        }

        // Over the cap (1 MB): refused with 413, nothing kept. Under the server's own body limit (the cap + 1 MB), so
        // Kestrel reads the rest of the body after the answer instead of resetting a client that is still sending it.
        var big = new byte[1536 * 1024];
        Random.Shared.NextBytes(big);
        var status413 = await client.UploadBuildFileAsync(id, "big.bin", big);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, status413);
        Assert.False(File.Exists(Path.Combine(jobFolder, "src", "big.bin")));
        await client.DeleteAsync(id);
        await client.WaitForStateAsync(id, Wait, null, "Deleted");
        Assert.Equal(HttpStatusCode.Conflict, await client.PostAsync($"/jobs/{id}/resetstats"));
    }

    [Fact]
    public async Task A_peer_outside_the_allowed_networks_is_refused_and_logged_while_loopback_is_served()
    {
        var address = NonLoopbackAddress();
        Assert.NotNull(address);
        var port = LoopbackPort.Free();
        await using var agent = await AgentProcess.StartAsync(url: $"http://0.0.0.0:{port}", options: ["--allow", "203.0.113.0/24"]);

        using var local = new AgentClient(new Uri($"http://127.0.0.1:{port}"));
        Assert.Equal(HttpStatusCode.OK, (await local.GetRawAsync("/info")).Status);

        // The same machine through its own non-loopback address: the peer is that address, not in 203.0.113.0/24.
        using var remote = new AgentClient(new Uri($"http://{address}:{port}"));
        var (status, body) = await remote.GetRawAsync("/jobs");
        Assert.Equal(HttpStatusCode.Forbidden, status);
        Assert.Contains("not in this agent's allowed networks", body, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Forbidden, (await remote.PostJobAsync(AgentClient.Job("a", "r"))).Status);
        await Task.Delay(200);
        Assert.Contains($"Refused GET /jobs from {address}", agent.Output, StringComparison.Ordinal);
        Assert.Empty(System.Text.Json.Nodes.JsonNode.Parse((await local.GetRawAsync("/jobs")).Body)!.AsArray());
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Listening_beyond_loopback_without_an_allow_list_is_a_usage_error()
    {
        var result = await InProcessCli.InvokeAsync("agent", "--url", "http://0.0.0.0:5999");
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("needs --allow", result.Error, StringComparison.Ordinal);
        var bad = await InProcessCli.InvokeAsync("agent", "--allow", "not-a-network", "--url", "http://0.0.0.0:5999");
        Assert.Equal(2, bad.ExitCode);
        Assert.Contains("not-a-network", bad.Error, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_link_speed_that_is_not_a_rate_is_a_usage_error()
    {
        var result = await InProcessCli.InvokeAsync("agent", "--link-speed", "fast", "--url", "http://127.0.0.1:5999");
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("--link-speed: 'fast' is not a link rate", result.Error, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("jobs/builds")]
    [InlineData("jobs")]
    [InlineData(".")]
    [InlineData(" ")]
    public async Task A_build_cache_the_agent_would_empty_at_its_start_is_a_usage_error(string cache)
    {
        var home = TestPaths.NewTempDirectory();
        var result = await InProcessCli.InvokeAsync("agent", "--jobs-dir", Path.Combine(home, "jobs"), "--build-cache",
            string.IsNullOrWhiteSpace(cache) ? cache : Path.Combine(home, cache));
        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.StartsWith("error: --build-cache", result.Error, StringComparison.Ordinal);
        Assert.Single(result.Error.Trim().Split('\n'));
    }

    [Fact]
    public async Task A_port_in_use_is_a_one_line_error_with_exit_code_1()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var result = await HostRun.StartAsync(TestPaths.NewTempDirectory(), TimeSpan.FromSeconds(30), "agent", "--url", $"http://127.0.0.1:{port}",
            "--jobs-dir", TestPaths.NewTempDirectory());
        Assert.Equal(1, result.ExitCode);
        Assert.Contains($"cannot listen on http://127.0.0.1:{port}", result.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_jobs_folder_holding_what_the_agent_did_not_make_is_refused_and_left_untouched()
    {
        // --jobs-dir ~ by mistake: the agent empties its jobs folder, so it must not take this one.
        var home = TestPaths.NewTempDirectory();
        Directory.CreateDirectory(Path.Combine(home, "photos"));
        await File.WriteAllTextAsync(Path.Combine(home, "notes.txt"), "mine");
        var result = await HostRun.StartAsync(TestPaths.NewTempDirectory(), TimeSpan.FromSeconds(30), "agent", "--url", "http://127.0.0.1:0", "--jobs-dir",
            home);
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("holds files this agent did not make", result.Error, StringComparison.Ordinal);
        Assert.Single(result.Error.Trim().Split('\n'));
        Assert.True(Directory.Exists(Path.Combine(home, "photos")));
        Assert.Equal("mine", await File.ReadAllTextAsync(Path.Combine(home, "notes.txt")));
        Assert.False(File.Exists(Path.Combine(home, ".benchmarks-agent")));
    }

    [Fact]
    public async Task An_agent_removes_only_the_job_folders_and_builds_it_made()
    {
        // A folder an agent used before (marked), with a leftover job, a build, and a file someone put there.
        var jobs = TestPaths.NewTempDirectory();
        await File.WriteAllTextAsync(Path.Combine(jobs, ".benchmarks-agent"), "");
        Directory.CreateDirectory(Path.Combine(jobs, "7", "src"));
        Directory.CreateDirectory(Path.Combine(jobs, "builds", "0123abcd"));
        Directory.CreateDirectory(Path.Combine(jobs, "keep"));
        await using (var agent = await AgentProcess.StartAsync(jobsDirectory: jobs))
        {
            Assert.False(Directory.Exists(Path.Combine(jobs, "7")));
            Assert.False(Directory.Exists(Path.Combine(jobs, "builds", "0123abcd")));
            Assert.True(Directory.Exists(Path.Combine(jobs, "keep")));
        }

        // A new folder is claimed with the marker, so the next agent may clean it.
        var fresh = Path.Combine(TestPaths.NewTempDirectory(), "new-jobs");
        await using (var agent = await AgentProcess.StartAsync(jobsDirectory: fresh))
        {
            Assert.True(File.Exists(Path.Combine(fresh, ".benchmarks-agent")));
        }
    }

    [Fact]
    public async Task Attachments_have_the_same_extraction_cap_and_confinement_and_a_refused_one_leaves_nothing()
    {
        await using var agent = await AgentProcess.StartAsync(options: ["--max-upload-mb", "1"]);
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "attach", j => j["Executable"] = "/bin/true"));
        await client.WaitForStateAsync(id, Wait, null, "Initializing");
        var attachments = Path.Combine(agent.JobsDirectory, id.ToString(System.Globalization.CultureInfo.InvariantCulture), "attachments");

        // 3 MB of zeros in a few KB: a zip bomb for a 1 MB cap.
        var bomb = AgentClient.Zip(("zeros.bin", new string('\0', 3 * 1024 * 1024)));
        Assert.True(bomb.Length < 64 * 1024);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, await client.PostAsync($"/jobs/{id}/attachment/zip", new ByteArrayContent(bomb)));

        // An entry that stays inside the job folder but leaves the folder it is extracted into.
        var sideways = AgentClient.Zip(($"../{id + 1}/x.txt", "sideways"));
        Assert.Equal(HttpStatusCode.BadRequest, await client.PostAsync($"/jobs/{id}/attachment/zip", new ByteArrayContent(sideways)));
        Assert.True(!Directory.Exists(attachments) || Directory.GetFiles(attachments).Length == 0, "a refused attachment was kept");

        // A file and a folder of the same name: refused with its cause, not a 500.
        var clash = AgentClient.Zip(("esc", "file"), ("esc/x", "under a file"));
        Assert.Equal(HttpStatusCode.BadRequest, await client.UploadSourceAsync(id, "app", clash));
        await client.DeleteAsync(id);
    }

    [Fact]
    public async Task Job_documents_that_are_not_json_objects_or_too_large_are_refused_with_4xx()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        async Task<HttpStatusCode?> PostAsync(byte[] body)
        {
            using var content = new ByteArrayContent(body);
            content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
            try
            {
                return await client.PostAsync("/jobs", content);
            }
            catch (HttpRequestException ex) when (ex.InnerException is IOException)
            {
                // The agent answered 413 and closed the connection before the whole body was sent: the
                // client's write fails first. Refused either way; the job list below says nothing was created.
                return null;
            }
        }

        var duplicate = System.Text.Encoding.UTF8.GetBytes("""{"DriverVersion": 2, "State": "New", "RunId": "a", "RunId": "b"}""");
        Assert.Equal(HttpStatusCode.BadRequest, await PostAsync(duplicate));
        byte[] invalidUtf8 = [.. System.Text.Encoding.UTF8.GetBytes("""{"DriverVersion": 2, "Service": " """), 0xC3, 0x28,
            .. System.Text.Encoding.UTF8.GetBytes("\"}")];
        Assert.Equal(HttpStatusCode.BadRequest, await PostAsync(invalidUtf8));
        var huge = AgentClient.Job("application", "huge", j => j["Padding"] = new string('x', 2 * 1024 * 1024));
        Assert.Contains(await PostAsync(System.Text.Encoding.UTF8.GetBytes(huge.ToJsonString())),
            new HttpStatusCode?[] { HttpStatusCode.RequestEntityTooLarge, null });
        Assert.Equal("[]", (await client.GetRawAsync("/jobs")).Body);
    }

    [Fact]
    public async Task A_deleted_job_keeps_only_what_identifies_it()
    {
        await using var agent = await AgentProcess.StartAsync();
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "big", j =>
        {
            j["Executable"] = "/bin/true";
            j["Padding"] = new string('x', 512 * 1024);
        }));
        await client.WaitForStateAsync(id, Wait, null, "Initializing");
        Assert.Equal(HttpStatusCode.Accepted, await client.DeleteAsync(id));

        Assert.Equal("Deleted", await client.StateAsync(id));
        var (status, body) = await client.GetRawAsync($"/jobs/{id}");
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.True(body.Length < 4096, $"a deleted job still holds {body.Length} bytes");
        Assert.Contains("\"runId\":\"big\"", body, StringComparison.Ordinal);
    }

    private static IPAddress? NonLoopbackAddress() =>
        NetworkInterface.GetAllNetworkInterfaces()
            .Where(n => n.OperationalStatus == OperationalStatus.Up && n.NetworkInterfaceType != NetworkInterfaceType.Loopback)
            .SelectMany(n => n.GetIPProperties().UnicastAddresses)
            .Select(a => a.Address)
            .FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork && !IPAddress.IsLoopback(a));
}

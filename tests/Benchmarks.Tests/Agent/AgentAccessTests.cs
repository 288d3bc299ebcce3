using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;
using Benchmarks.Host.Platform;
using Benchmarks.Tests.Integration;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// Who can start a job on an agent: its own account's and the administrator's local programs and the allowed
/// networks' controllers; never a browser (a page on any site, a rebound DNS name), and not another local account
/// unless the operator allows it. Each shape was seen to run a command as the agent's account before the guard.
/// </summary>
public sealed class AgentAccessTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(30);

    private static string ShellJob(string marker) => new JsonObject
    {
        ["driverVersion"] = 1,
        ["runId"] = "x",
        ["executable"] = "/bin/sh",
        ["arguments"] = $"-c \"id > {marker}\"",
        ["isConsoleApp"] = true,
    }.ToJsonString();

    [Fact]
    public async Task Requests_shaped_as_a_browser_s_are_refused_and_start_nothing()
    {
        var port = LoopbackPort.Free();
        await using var agent = await AgentProcess.StartAsync(url: $"http://127.0.0.1:{port}");
        using var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };
        var marker = Path.Combine(TestPaths.NewTempDirectory(), "ran");

        async Task<(HttpStatusCode, string)> Post(string? contentType, params (string Name, string Value)[] headers)
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, "/jobs") { Content = new ByteArrayContent(Encoding.UTF8.GetBytes(ShellJob(marker))) };
            if (contentType is not null)
            {
                request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
            }

            foreach (var (name, value) in headers)
            {
                request.Headers.TryAddWithoutValidation(name, value);
            }

            using var response = await http.SendAsync(request);
            return (response.StatusCode, await response.Content.ReadAsStringAsync());
        }

        // A page's cross-site POST (text/plain needs no preflight), the DNS-rebinding shape, a fetch's metadata, a body that is not JSON.
        var (status, body) = await Post("text/plain", ("Origin", "http://evil.example"));
        Assert.Equal(HttpStatusCode.Forbidden, status);
        Assert.Contains("a browser's request", body, StringComparison.Ordinal);
        (status, body) = await Post("application/json", ("Origin", "null"));
        Assert.Equal(HttpStatusCode.Forbidden, status);
        (status, body) = await Post("application/json", ("Host", $"evil.example:{port}"));
        Assert.Equal(HttpStatusCode.Forbidden, status);
        Assert.Contains("Host 'evil.example' is not this machine's address or name", body, StringComparison.Ordinal);
        (status, _) = await Post("application/json", ("Sec-Fetch-Mode", "no-cors"));
        Assert.Equal(HttpStatusCode.Forbidden, status);
        (status, body) = await Post("text/plain");
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, status);
        Assert.Contains("application/json", body, StringComparison.Ordinal);
        (status, _) = await Post(null);
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, status);

        // A real browser: a page's no-cors fetch, as an attacker's site would send it.
        var page = Path.Combine(TestPaths.NewTempDirectory(), "page.html");
        await File.WriteAllTextAsync(page, $$"""
            <html><body><script>
            fetch("http://127.0.0.1:{{port}}/jobs", { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" },
              body: {{JsonValue.Create(ShellJob(marker)).ToJsonString()}} })
              .catch(() => {}).finally(() => document.body.setAttribute("data-sent", "1"));
            </script></body></html>
            """);
        var dom = await Chromium.DumpDomAsync(page, "--virtual-time-budget=10000");
        Assert.Contains("data-sent=\"1\"", dom, StringComparison.Ordinal);
        Assert.True(await agent.WaitForOutputAsync("Refused POST /jobs from 127.0.0.1: a browser's request", s_wait), agent.Output);

        // Nothing was created, nothing ran; the agent's own account is still served.
        using var client = new AgentClient(agent.Url);
        Assert.Empty(JsonNode.Parse((await client.GetRawAsync("/jobs/all")).Body)!.AsArray());
        Assert.False(File.Exists(marker));
        Assert.Equal(HttpStatusCode.Accepted, (await client.PostJobAsync(AgentClient.Job("a", "r"))).Status);
    }

    [Fact]
    public async Task Another_local_account_is_refused_unless_the_operator_allows_every_account()
    {
        Assert.True(OperatingSystem.IsLinux() && Environment.UserName == "root", "runs as root, to be another account through runuser");
        Tools.Require("runuser");
        Tools.Require("curl");
        foreach (var allowAll in new[] { false, true })
        {
            var port = LoopbackPort.Free();
            await using var agent = await AgentProcess.StartAsync(url: $"http://127.0.0.1:{port}", options: allowAll ? ["--allow-local-users"] : []);
            var marker = Path.Combine(TestPaths.NewTempDirectory(), "ran");
            var (exit, output) = await ExternalTool.RunAsync("runuser", "-u", "nobody", "--", "curl", "-s", "-w", " %{http_code}", "-X", "POST",
                "-H", "Content-Type: application/json", "-d", ShellJob(marker), $"http://127.0.0.1:{port}/jobs");
            Assert.True(exit == 0, output);
            if (allowAll)
            {
                Assert.EndsWith(" 202", output, StringComparison.Ordinal);
                continue;
            }

            Assert.EndsWith(" 403", output, StringComparison.Ordinal);
            Assert.Contains("another local account's (uid 65534)", output, StringComparison.Ordinal);
            Assert.True(await agent.WaitForOutputAsync("Refused POST /jobs from 127.0.0.1: this connection is another local account's", s_wait), agent.Output);
            using var client = new AgentClient(agent.Url);
            Assert.Empty(JsonNode.Parse((await client.GetRawAsync("/jobs/all")).Body)!.AsArray());
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public void The_socket_table_s_lines_give_both_ends_and_the_owner()
    {
        Assert.True(OperatingSystem.IsLinux(), "the table is Linux's");
        var v4 = LinuxConnectionOwners.ParseLine("   3: 0100007F:A2C4 0100007F:1392 01 00000000:00000000 00:00000000 00000000 65534        0 123456 1 " +
            "0000000000000000 20 4 30 10 -1");
        Assert.NotNull(v4);
        Assert.Equal(new IPEndPoint(IPAddress.Loopback, 0xA2C4), v4.Value.Local);
        Assert.Equal(new IPEndPoint(IPAddress.Loopback, 5010), v4.Value.Remote);
        Assert.Equal(65534u, v4.Value.Uid);
        Assert.Equal(LinuxConnectionOwners.Established, v4.Value.State);
        var v6 = LinuxConnectionOwners.ParseLine("   0: 00000000000000000000000001000000:1392 0000000000000000FFFF00000100007F:A2C4 01 00000000:00000000 " +
            "00:00000000 00000000     0        0 1 1 0 20 4 30 10 -1");
        Assert.NotNull(v6);
        Assert.Equal(IPAddress.IPv6Loopback, v6.Value.Local.Address);
        Assert.Equal(IPAddress.Parse("::ffff:127.0.0.1"), v6.Value.Remote.Address);
        Assert.Null(LinuxConnectionOwners.ParseLine("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task An_allowed_host_must_be_a_name()
    {
        var result = await InProcessCli.InvokeAsync("agent", "--allow-host", "*.example", "--url", "http://127.0.0.1:5999");
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("--allow-host '*.example' is not a host name", result.Error, StringComparison.Ordinal);
    }
}

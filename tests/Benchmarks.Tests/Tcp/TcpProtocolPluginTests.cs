using System.Text.Json;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tcp;

/// <summary>
/// A TCP protocol from a plugin (the sample plugin's RESP <c>PING</c>, server and client) under the
/// TCP load: against the sockets server in a <c>run</c>, against a real Redis server with
/// <c>load</c> and <c>verify</c>, and caught when the answers are wrong.
/// </summary>
public sealed class TcpProtocolPluginTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task A_plugin_protocol_runs_with_its_own_client_takes_a_rate_and_times_each_request_from_its_due_time()
    {
        var results = TestPaths.NewTempDirectory();

        // No --server: kestrel serves HTTP only, so the run takes the sockets server.
        var run = await HostRun.StartAsync(results, s_timeout, "run", "resp-ping", "--plugins", TestPaths.SamplePluginDirectory, "--rate", "2000", "-c", "16",
            "-d", "2s", "-w", "1s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("resp/s", run.Output, StringComparison.Ordinal);
        Assert.Contains("Verified: 3 raw TCP checks passed.", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.Equal("sockets", document.Server);
        Assert.Equal("resp-ping", document.Parameters["tcp-protocol"]);
        Assert.False(document.Parameters.ContainsKey("message-size"));
        Assert.Contains(document.Samples, s => s.Values.ContainsKey("load/rate"));
        var m = document.Measurements;
        Assert.Equal(2000, m["tcp/rate/requested"]);
        Assert.Equal(0, m["tcp/errors"]);
        Assert.Equal(m["tcp/requests"], m["tcp/responses"] + m["tcp/errors"] + m["tcp/unfinished"]);

        // Paced, not a closed loop (which does tens of thousands a second here): at most the schedule, and most of it.
        // The window sends what fell due in it and what the warm-up left due (its backlog, which a busy
        // machine may not drain in the warm-up's second), plus at most one request per connection taken
        // from the schedule just before the window opened.
        Assert.True(m["tcp/requests/due"] >= 3000, $"{m["tcp/requests/due"]} due");
        Assert.InRange(m["tcp/requests"], m["tcp/requests/due"] / 2, m["tcp/requests/due"] + m["tcp/requests/backlog/start"] + 16);
        Assert.InRange(m["tcp/responses/rate"], 1000, 2000 * (1 + (m["tcp/requests/backlog/start"] + 16) / m["tcp/requests/due"]));
        foreach (var percentile in new[] { "50", "99", "max" })
        {
            Assert.True(m[$"tcp/rtt/{percentile}"] >= m[$"tcp/rtt/uncorrected/{percentile}"],
                $"p{percentile}: from the due time {m[$"tcp/rtt/{percentile}"]} ms < from the send {m[$"tcp/rtt/uncorrected/{percentile}"]} ms");
        }
    }

    [Fact]
    public async Task The_plugin_client_loads_and_verifies_a_real_redis_server()
    {
        await using var redis = await RedisServer.StartAsync();
        var directory = TestPaths.NewTempDirectory();
        var jsonPath = Path.Combine(directory, "load.json");
        var load = await HostRun.StartAsync(directory, s_timeout, "load", "--tcp", "--url", $"tcp://127.0.0.1:{redis.Port}", "--scenario", "resp-ping",
            "--plugins", TestPaths.SamplePluginDirectory, "-c", "8", "--window", "8", "-d", "2s", "-w", "1s", "--json", jsonPath);
        Assert.True(load.ExitCode == 0, load.ToString());
        Assert.Contains($"TCP resp-ping @ tcp://127.0.0.1:{redis.Port}/", load.Output, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(jsonPath));
        var root = json.RootElement;
        Assert.Equal("resp-ping", root.GetProperty("protocol").GetString());
        Assert.True(root.GetProperty("answered").GetInt64() > 1000, load.Output);
        Assert.Equal(root.GetProperty("sent").GetInt64(), root.GetProperty("answered").GetInt64() + Failed(root) + root.GetProperty("unfinished").GetInt64());

        var verify = await HostRun.StartAsync(directory, s_timeout, "verify", "--scenario", "resp-ping", "--plugins", TestPaths.SamplePluginDirectory, "--url",
            $"tcp://127.0.0.1:{redis.Port}");
        Assert.True(verify.ExitCode == 0, verify.ToString());
        Assert.Contains("PASS  a resp-ping request sent in two segments is answered", verify.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Answers_that_are_not_the_protocols_are_mismatches()
    {
        // The echo server sends PING back where +PONG is due.
        await using var serve = await ServeProcess.StartAsync("sockets", "tcp-echo", scheme: "tcp");
        var directory = TestPaths.NewTempDirectory();
        var jsonPath = Path.Combine(directory, "load.json");
        var load = await HostRun.StartAsync(directory, s_timeout, "load", "--tcp", "--url", $"tcp://127.0.0.1:{serve.Port}", "--scenario", "resp-ping",
            "--plugins", TestPaths.SamplePluginDirectory, "-c", "4", "-d", "1s", "-w", "0s", "--json", jsonPath);
        Assert.True(load.ExitCode == 1, load.ToString());
        Assert.Contains("the answer is not the one expected", load.Error, StringComparison.Ordinal);
        using var json = JsonDocument.Parse(await File.ReadAllTextAsync(jsonPath));
        Assert.Equal(0, json.RootElement.GetProperty("answered").GetInt64());
        Assert.True(json.RootElement.GetProperty("failed").GetProperty("mismatch").GetInt64() > 0, load.Output);
    }

    private static long Failed(JsonElement json) => json.GetProperty("failed").EnumerateObject().Sum(p => p.Value.GetInt64());
}

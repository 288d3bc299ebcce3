using System.Text.Json;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tcp;

/// <summary>tcp-echo on the raw servers and the TCP load: exact counts in both modes, faults caught by cause, bad arguments.</summary>
[LongRunning]
public sealed class TcpEchoTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("sockets", "persistent")]
    [InlineData("sockets", "churn")]
    [InlineData("libuv", "persistent")]
    [InlineData("libuv", "churn")]
    [InlineData("iouring", "persistent")]
    [InlineData("iouring", "churn")]
    public async Task Every_message_is_echoed_byte_for_byte_and_counted_exactly(string server, string mode)
    {
        await using var serve = await ServeProcess.StartAsync(server, "tcp-echo", scheme: "tcp");
        string[] shape = mode == "persistent" ? ["--window", "4"] : ["--linger-zero"];
        var result = await LoadAsync(serve.Port, ["--tcp-mode", mode, "-c", "50", "--message-size", "26", .. shape]);
        Assert.True(result.Run.ExitCode == 0, result.Run.ToString());
        var json = result.Json.RootElement;
        Assert.True(json.GetProperty("answered").GetInt64() > 100, result.Run.Output);
        Assert.Equal(json.GetProperty("sent").GetInt64(), json.GetProperty("answered").GetInt64() + Failed(json) + json.GetProperty("unfinished").GetInt64());
        Assert.Equal(0, Failed(json));
        Assert.Equal(0, json.GetProperty("connectFailed").EnumerateObject().Sum(p => p.Value.GetInt64()));
        Assert.Contains($"Requests: {json.GetProperty("sent").GetInt64()}", result.Run.Output, StringComparison.Ordinal);
        Assert.Contains($"Responses: {json.GetProperty("answered").GetInt64()}", result.Run.Output, StringComparison.Ordinal);
        if (mode == "churn")
        {
            // A connection per message: as many connects as messages, give or take those across the window's edges.
            Assert.InRange(json.GetProperty("connects").GetInt64(), json.GetProperty("sent").GetInt64() - 60, json.GetProperty("sent").GetInt64() + 60);
        }
    }

    [Fact]
    public async Task A_server_that_truncates_echoes_is_caught_and_counted_as_short_echoes()
    {
        await using var faulty = new FaultyEchoServer(FaultyEchoServer.Fault.TruncateEchoes);
        var result = await LoadAsync(faulty.Port, "--tcp-mode", "persistent", "-c", "10", "--window", "1", "--timeout", "300ms");
        Assert.Equal(1, result.Run.ExitCode);
        var json = result.Json.RootElement;
        // Half of each 26-byte echo comes back and the rest never does: a short echo, found at the timeout.
        Assert.True(json.GetProperty("failed").GetProperty("short-echo").GetInt64() > 0, result.Run.Output);
        Assert.Equal(0, json.GetProperty("answered").GetInt64());
        Assert.Equal(json.GetProperty("sent").GetInt64(), json.GetProperty("answered").GetInt64() + Failed(json) + json.GetProperty("unfinished").GetInt64());
        Assert.Contains("requests failed", result.Run.Error + result.Run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_server_that_resets_every_tenth_connection_is_caught_and_counted_as_resets()
    {
        await using var faulty = new FaultyEchoServer(FaultyEchoServer.Fault.ResetEveryTenthConnection);
        var result = await LoadAsync(faulty.Port, "--tcp-mode", "churn", "-c", "8");
        Assert.Equal(1, result.Run.ExitCode);
        var json = result.Json.RootElement;
        var resets = json.GetProperty("failed").GetProperty("reset").GetInt64() + json.GetProperty("connectFailed").GetProperty("reset").GetInt64();
        var attempts = json.GetProperty("sent").GetInt64() + json.GetProperty("connectFailed").EnumerateObject().Sum(p => p.Value.GetInt64());
        Assert.InRange(resets, attempts / 20, attempts / 5);
        Assert.Equal(json.GetProperty("sent").GetInt64(), json.GetProperty("answered").GetInt64() + Failed(json) + json.GetProperty("unfinished").GetInt64());
    }

    [Fact]
    public async Task A_server_that_echoes_twice_is_caught_as_a_mismatch_not_passed()
    {
        await using var faulty = new FaultyEchoServer(FaultyEchoServer.Fault.EchoTwice);
        var result = await LoadAsync(faulty.Port, "--tcp-mode", "persistent", "-c", "4", "--window", "1");
        Assert.True(result.Run.ExitCode == 1, result.Run.ToString());
        var json = result.Json.RootElement;
        Assert.True(json.GetProperty("failed").GetProperty("mismatch").GetInt64() > 0, result.Run.Output);
        Assert.Contains("requests failed", result.Run.Error + result.Run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_window_larger_than_the_socket_buffers_is_echoed_without_deadlock()
    {
        // 16 messages of 1 MiB in flight: written whole before reading, both ends would block on full buffers.
        await using var serve = await ServeProcess.StartAsync("sockets", "tcp-echo", scheme: "tcp");
        var result = await LoadAsync(serve.Port, "--tcp-mode", "persistent", "-c", "1", "--window", "16", "--message-size", "1048576", "--timeout", "5s");
        Assert.True(result.Run.ExitCode == 0, result.Run.ToString());
        var json = result.Json.RootElement;
        Assert.True(json.GetProperty("answered").GetInt64() >= 16, result.Run.Output);
        Assert.Equal(0, Failed(json));
    }

    [Fact]
    public async Task Verify_passes_the_raw_servers_and_fails_a_truncating_one()
    {
        foreach (var server in new[] { "sockets", "libuv" })
        {
            var good = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "verify", "--server", server, "--scenario", "tcp-echo");
            Assert.True(good.ExitCode == 0, good.ToString());
            Assert.Contains("PASS  the server closes once the client has closed", good.Output, StringComparison.Ordinal);
        }

        await using var faulty = new FaultyEchoServer(FaultyEchoServer.Fault.TruncateEchoes);
        var bad = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "verify", "--scenario", "tcp-echo", "--url",
            $"tcp://127.0.0.1:{faulty.Port}");
        Assert.True(bad.ExitCode == 1, bad.ToString());
        Assert.Contains("FAIL  a 256 KiB burst comes back whole and in order", bad.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Run_tcp_echo_stores_the_echo_rate_and_the_cpu_split()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "tcp-echo", "--server", "libuv", "-c", "100", "-d", "3s", "-w", "1s", "--results",
            results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.True(document.Measurements["tcp/responses/rate"] > 1000, run.Output);
        Assert.Equal(document.Measurements["tcp/requests"],
            document.Measurements["tcp/responses"] + document.Measurements["tcp/errors"] + document.Measurements["tcp/unfinished"]);
        Assert.True(document.Measurements["benchmarks/cpu/kernel"] > 0);
        Assert.NotNull(document.Bottleneck);
        Assert.StartsWith("tcp://127.0.0.1:", document.Parameters["url"], StringComparison.Ordinal);
        Assert.Equal("persistent", document.Parameters["tcp-mode"]);
        Assert.Equal("26", document.Parameters["message-size"]);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("--tcp needs a tcp://host:port URL", "load", "--tcp", "--url", "http://127.0.0.1:1/")]
    [InlineData("is a TCP address: add --tcp", "load", "--url", "tcp://127.0.0.1:1")]
    [InlineData("--window applies to --tcp-mode persistent", "load", "--tcp", "--url", "tcp://127.0.0.1:1", "--tcp-mode", "churn", "--window", "2")]
    [InlineData("--message-size must be between 1 and 1048576", "load", "--tcp", "--url", "tcp://127.0.0.1:1", "--message-size", "0")]
    [InlineData("--rate paces persistent connections with one request in flight each", "load", "--tcp", "--url", "tcp://127.0.0.1:1", "--rate", "100",
        "--window", "2")]
    [InlineData("--rate paces persistent connections with one request in flight each", "run", "tcp-echo", "--server", "sockets", "--tcp-mode", "churn",
        "--rate", "100")]
    [InlineData("'plaintext' is an HTTP scenario", "load", "--tcp", "--url", "tcp://127.0.0.1:1", "--scenario", "plaintext")]
    [InlineData("Argument 'bulk' not recognized", "load", "--tcp", "--url", "tcp://127.0.0.1:1", "--tcp-mode", "bulk")]
    [InlineData("kestrel serves HTTP only, and 'tcp-echo' is raw TCP (tcp://); servers that serve it: iouring, libuv, sockets.", "serve", "--scenario",
        "tcp-echo", "--server", "kestrel", "--urls", "tcp://127.0.0.1:1")]
    [InlineData("expected a raw TCP address such as tcp://127.0.0.1:5000", "serve", "--scenario", "tcp-echo", "--server", "sockets", "--urls",
        "http://127.0.0.1:1")]
    [InlineData("--window applies to --tcp-mode persistent", "run", "tcp-echo", "--server", "sockets", "--tcp-mode", "churn", "--window", "3")]
    [InlineData("kestrel serves HTTP only, and 'tcp-echo' is raw TCP (tcp://); servers that serve it: iouring, libuv, sockets.", "run", "tcp-echo", "--server",
        "kestrel")]
    [InlineData("libuv answers no WebSocket upgrade, and 'ws-echo' needs one; servers that serve it: kestrel, sockets.", "run", "ws-echo", "--server", "libuv")]
    [InlineData("kestrel serves HTTP only, and 'tcp-echo' is raw TCP (tcp://); servers that serve it: iouring, libuv, sockets.", "verify", "--scenario",
        "tcp-echo", "--server", "kestrel")]
    public async Task Bad_tcp_arguments_exit_2_with_one_clear_line(string expected, params string[] arguments)
    {
        var run = await InProcessCli.InvokeAsync(arguments);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.StartsWith("error: ", run.Error, StringComparison.Ordinal);
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
    }

    private static long Failed(JsonElement json) => json.GetProperty("failed").EnumerateObject().Sum(p => p.Value.GetInt64());

    private static async Task<(HostRun Run, JsonDocument Json)> LoadAsync(int port, params string[] arguments)
    {
        var directory = TestPaths.NewTempDirectory();
        var jsonPath = Path.Combine(directory, "load.json");
        var run = await HostRun.StartAsync(directory, s_timeout,
            ["load", "--tcp", "--url", $"tcp://127.0.0.1:{port}", "-d", "2s", "-w", "0s", "--json", jsonPath, .. arguments]);
        Assert.True(File.Exists(jsonPath), run.ToString());
        return (run, JsonDocument.Parse(await File.ReadAllTextAsync(jsonPath)));
    }
}

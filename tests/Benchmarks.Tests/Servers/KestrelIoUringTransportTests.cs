using System.Net.Sockets;
using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// Kestrel on the io_uring transport (<c>--server-option transport=iouring</c>) as a real process:
/// Kestrel's own HTTP/1.1, TLS and HTTP/2 pass TechEmpower's checks and carry a load over it, the
/// connections are the rings' (their threads and rings are in the process), a connection's end —
/// closed, reset, or mid-request — frees its descriptor, and the socket transport's own options
/// are refused with it in one line.
/// </summary>
public sealed class KestrelIoUringTransportTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("http1")]
    [InlineData("https")]
    [InlineData("h2")]
    [InlineData("h2c")]
    public async Task Every_wire_is_verified_and_loaded_over_the_rings(string protocol)
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "kestrel", "--server-option", "transport=iouring",
            "--protocol", protocol, "-c", "16", "-d", "1s", "-w", "0s", "--no-counters", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Matches(@"Verified: \d+ TechEmpower checks passed", run.Output);
        var stored = StoredRuns.Single(results);
        Assert.True(stored.Measurements["http/requests"] > 100, $"{stored.Measurements["http/requests"]} requests");
        Assert.Equal(0, stored.Measurements["http/requests/errors"]);
        Assert.Equal("iouring", stored.Parameters["server-option/transport"]);
    }

    [Fact]
    public async Task The_rings_serve_pipelined_requests_and_a_connections_end_frees_its_descriptor()
    {
        await using var serve = await ServeProcess.StartAsync("kestrel", options: ["transport=iouring", "ioQueueCount=2"]);

        // The connections are the rings': two threads of the transport, each with its ring.
        var threads = Directory.GetDirectories($"/proc/{serve.Pid}/task").Select(t => File.ReadAllText(Path.Combine(t, "comm")).Trim()).ToList();
        Assert.Equal(2, threads.Count(t => t.StartsWith("io_uring transp", StringComparison.Ordinal)));
        Assert.Equal(2, Descriptors(serve.Pid).Count(d => d == "anon_inode:[io_uring]"));

        using (var client = await RawClient.ConnectAsync(serve.Port))
        {
            var batch = string.Concat(Enumerable.Range(0, 16).Select(i => i == 7
                ? "GET /missing HTTP/1.1\r\nHost: t\r\n\r\n"
                : "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n"));
            await client.SendAsync(batch);
            var (text, _) = await client.ReadAsync(t => Regex.Count(t, "HTTP/1.1 ") == 16 && t.EndsWith("Hello, World!", StringComparison.Ordinal));
            var statuses = Regex.Matches(text, @"HTTP/1\.1 (\d{3})").Select(m => m.Groups[1].Value).ToList();
            Assert.Equal(16, statuses.Count);
            Assert.Equal("404", statuses[7]);
            Assert.Contains("Server: Kestrel\r\n", text, StringComparison.Ordinal);
        }

        // 400 connections ended every way a client ends one: closed after an answer, reset, gone mid-request, and
        // gone with 64 pipelined requests unanswered (Kestrel aborts those and disposes them at once: the way wrk
        // ends, which once ended the process).
        var before = await SettledDescriptorsAsync(serve.Pid, int.MaxValue);
        var pipelined = System.Text.Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n", 64)));
        for (var i = 0; i < 400; i++)
        {
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            await socket.ConnectAsync(System.Net.IPAddress.Loopback, serve.Port);
            switch (i % 4)
            {
                case 0:
                    await socket.SendAsync("GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n"u8.ToArray());
                    var answer = new byte[512];
                    Assert.True(await socket.ReceiveAsync(answer) > 0);
                    socket.Shutdown(SocketShutdown.Both);
                    break;
                case 1:
                    socket.LingerState = new LingerOption(true, 0);
                    break;
                case 2:
                    await socket.SendAsync("GET /plaintext HTTP/1.1\r\nHo"u8.ToArray());
                    break;
                default:
                    await socket.SendAsync(pipelined);
                    socket.LingerState = new LingerOption(true, 0);
                    break;
            }
        }

        var after = await SettledDescriptorsAsync(serve.Pid, before);
        Assert.True(after <= before, $"{before} descriptors before 400 connections, {after} after");
        Assert.Equal(0, await serve.StopAsync());
    }

    /// <summary>The transports side by side in one command: a sweep over the server option, one run of each, one table.</summary>
    [Fact]
    public async Task One_command_runs_both_transports_as_cells_of_a_sweep()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "kestrel", "--server-option", "transport=sockets,iouring",
            "-c", "16", "-d", "1s", "-w", "0s", "--no-counters", "--no-verify", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var transports = Directory.GetFiles(results, "*-plaintext-kestrel-*.json")
            .Select(f => System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(f))!["parameters"]!["server-option/transport"]!.ToString())
            .Order(StringComparer.Ordinal);
        Assert.Equal(["iouring", "sockets"], transports);
        Assert.Contains("server-option/transport", run.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_server_options_list_is_an_axis_named_as_its_parameter_and_each_cell_takes_one_value()
    {
        var plan = Benchmarks.Host.Sweeps.SweepPlan.TryCreate(["run", "plaintext", "--server", "kestrel", "--server-option", "ioQueueCount=2",
            "--server-option", "transport=sockets,iouring"])!;
        Assert.Equal("server-option/transport", plan.Axes.Single().Name);
        Assert.Equal([["run", "plaintext", "--server", "kestrel", "--server-option", "ioQueueCount=2", "--server-option", "transport=sockets"],
            ["run", "plaintext", "--server", "kestrel", "--server-option", "ioQueueCount=2", "--server-option", "transport=iouring"]],
            plan.Cells.Select(c => c.Arguments.ToArray()));
        Assert.Null(Benchmarks.Host.Sweeps.SweepPlan.TryCreate(["run", "plaintext", "--server-option", "transport=iouring"]));
        Assert.Throws<FormatException>(() => Benchmarks.Host.Sweeps.SweepPlan.TryCreate(["run", "plaintext", "--server-option", "transport=sockets,"]));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("transport=uring", "Unknown Kestrel transport 'uring': use sockets or iouring.")]
    [InlineData("noDelay=false", "Kestrel option 'noDelay' is the socket transport's: the io_uring transport does not read it")]
    [InlineData("inlineCompletions=true", "Kestrel option 'inlineCompletions' is the socket transport's")]
    public async Task A_socket_transport_option_or_an_unknown_transport_is_refused_in_one_line(string option, string message)
    {
        var (exitCode, _, error) = await InProcessCli.InvokeAsync("run", "plaintext", "--server", "kestrel", "--server-option", "transport=iouring",
            "--server-option", option);
        Assert.Equal(2, exitCode);
        Assert.Contains(message, error, StringComparison.Ordinal);
        Assert.Single(error.Trim().Split('\n'));
    }

    private static List<string> Descriptors(int pid) =>
        [.. Directory.GetFiles($"/proc/{pid}/fd").Select(f => { try { return new FileInfo(f).LinkTarget ?? ""; } catch (IOException) { return ""; } })];

    /// <summary>The process's open descriptors once they stop falling (or reach <paramref name="target"/>), within 10 s.</summary>
    private static async Task<int> SettledDescriptorsAsync(int pid, int target)
    {
        var count = Descriptors(pid).Count;
        for (var i = 0; i < 50 && count > target; i++)
        {
            await Task.Delay(200);
            count = Descriptors(pid).Count;
        }

        return count;
    }
}

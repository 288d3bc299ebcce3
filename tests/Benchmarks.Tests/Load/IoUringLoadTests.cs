using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Load;

/// <summary>
/// The built-in load's io_uring engine (<c>BENCHMARKS_HTTP_ENGINE=iouring</c>) as a real process
/// against real servers: every answer counted and checked, one request at a time and pipelined; a
/// server that goes away mid-run counted as errors with the first cause, the run ending on time;
/// and what it cannot do (TLS, HTTP/2, the open model, a machine that forbids io_uring) refused in
/// one line before anything starts.
/// </summary>
public sealed class IoUringLoadTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(1);
    private static readonly Dictionary<string, string> s_ioUring = new() { ["BENCHMARKS_HTTP_ENGINE"] = "iouring" };

    [Theory]
    [InlineData("sockets", "1")]
    [InlineData("iouring", "16")]
    public async Task Every_answer_is_counted_and_checked_one_at_a_time_and_pipelined(string server, string depth)
    {
        await using var serve = await ServeProcess.StartAsync(server);
        var folder = TestPaths.NewTempDirectory();
        var json = Path.Combine(folder, "load.json");
        var load = await HostRun.StartAsync(folder, s_timeout, s_ioUring, "load", "--url", $"http://127.0.0.1:{serve.Port}/plaintext", "--scenario",
            "plaintext", "-c", "32", "-p", depth, "-d", "2s", "-w", "0s", "--json", json);
        Assert.True(load.ExitCode == 0, load.ToString());
        Assert.Contains($"32 connections, pipeline depth {depth} (io_uring engine)", load.Output, StringComparison.Ordinal);
        var result = JsonNode.Parse(await File.ReadAllTextAsync(json))!;
        Assert.True((long)result["good"]! > 2000, load.ToString());
        Assert.Equal(0, (long)result["bad"]! + (long)result["errors"]!["total"]!);
        Assert.Equal(0, (long)result["good"]! % long.Parse(depth, System.Globalization.CultureInfo.InvariantCulture));
    }

    [Fact]
    public async Task A_server_that_goes_away_mid_run_is_counted_with_its_cause_and_the_run_ends_on_time()
    {
        // Disposed mid-run by the test; the using stops it too when an assertion fails first.
        await using var serve = await ServeProcess.StartAsync("libuv");
        var folder = TestPaths.NewTempDirectory();
        var json = Path.Combine(folder, "load.json");
        var started = System.Diagnostics.Stopwatch.StartNew();
        var run = HostRun.StartAsync(folder, s_timeout, s_ioUring, "load", "--url", $"http://127.0.0.1:{serve.Port}/plaintext", "-c", "16", "-d", "3s", "-w",
            "0s", "--json", json);
        // Once the load is in (its start can take a second on a busy machine), it serves it a little longer, then goes.
        try
        {
            await serve.WaitForClientAsync(TimeSpan.FromSeconds(20));
        }
        catch (TimeoutException ex)
        {
            Assert.Fail($"{ex.Message}\n{await run}");
        }

        await Task.Delay(500);
        await serve.DisposeAsync();
        var load = await run;
        Assert.InRange(started.Elapsed.TotalSeconds, 2.5, 20);
        var result = JsonNode.Parse(await File.ReadAllTextAsync(json))!;
        // Some answers before the server went away (a contended machine may serve only tens in that half second).
        Assert.True((long)result["good"]! > 0, load.ToString());
        Assert.True((long)result["errors"]!["total"]! > 0, load.ToString());
        // The first cause is the requests the dying server left unanswered, or its refusal to reconnect.
        Assert.Matches("^(read: ECONNRESET|read: the server closed the connection with requests outstanding|connect to 127.0.0.1:[0-9]+: ECONNREFUSED)",
            result["firstError"]!.ToString());
    }

    [Theory]
    [InlineData("--rate", "100")]
    [InlineData("--protocol", "h2c")]
    public async Task What_the_engine_cannot_drive_is_refused_in_one_line(string option, string value)
    {
        var folder = TestPaths.NewTempDirectory();
        var load = await HostRun.StartAsync(folder, s_timeout, s_ioUring, "load", "--url", "http://127.0.0.1:9/plaintext", option, value, "-d", "1s");
        Assert.Equal(2, load.ExitCode);
        Assert.Contains("The io_uring engine drives cleartext HTTP/1.1 with keep-alive in the closed loop", load.Error, StringComparison.Ordinal);
        Assert.Single(load.Error.Trim().Split('\n'));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("--load-engine is auto, epoll, iouring or sockets (got 'uring').", "run", "plaintext", "--load-engine", "uring")]
    [InlineData("wrk is a client of its own: --load-engine picks the built-in load's engine (--generator builtin).", "run", "plaintext", "--generator", "wrk",
        "--load-engine", "iouring")]
    [InlineData("wrk is a client of its own: --load-engine picks the built-in load's engine (--generator builtin).", "load", "--url", "http://127.0.0.1:9/",
        "--engine", "wrk", "--load-engine", "epoll")]
    [InlineData("The io_uring engine drives cleartext HTTP/1.1 with keep-alive in the closed loop", "run", "plaintext", "--load-engine", "iouring", "--tls")]
    [InlineData("The io_uring engine drives cleartext HTTP/1.1 with keep-alive in the closed loop", "run", "plaintext", "--load-engine", "iouring", "--rate",
        "1000")]
    public async Task A_load_engine_that_cannot_run_is_refused_before_anything_starts(string message, params string[] arguments)
    {
        var (exitCode, _, error) = await InProcessCli.InvokeAsync(arguments);
        Assert.Equal(2, exitCode);
        Assert.Contains(message, error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task One_run_sweeps_the_load_over_its_engines_and_stores_which_ran()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "libuv", "--load-engine", "epoll,iouring", "-c", "16", "-d",
            "1s", "-w", "0s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("2 cells, 0 failed", run.Output, StringComparison.Ordinal);
        var documents = Directory.GetFiles(results, "*.json").Select(f => JsonNode.Parse(File.ReadAllText(f))!).ToList();
        Assert.Equal(["epoll", "iouring"], documents.Select(d => d["parameters"]!["load-engine"]!.ToString()).Order(StringComparer.Ordinal));

        // The machine's kernel and what its io_uring probe said are part of where the run happened.
        var kernel = (await File.ReadAllTextAsync("/proc/sys/kernel/osrelease")).Trim();
        Assert.All(documents, d => Assert.Equal((kernel, "available"), (d["environment"]!["kernel"]!.ToString(), d["environment"]!["ioUring"]!.ToString())));
    }

    [Fact]
    public async Task Where_a_seccomp_filter_forbids_io_uring_the_load_is_refused_with_that_cause()
    {
        var folder = TestPaths.NewTempDirectory();
        var filter = Path.Combine(TestPaths.RepoRoot, "eng", "no-io-uring.py");
        var load = await HostRun.StartProcessAsync(folder, s_timeout, s_ioUring, "python3", filter, TestPaths.HostExecutable, "load", "--url",
            "http://127.0.0.1:9/plaintext", "-d", "1s");
        Assert.Equal(2, load.ExitCode);
        Assert.Contains("The io_uring engine cannot run here: io_uring_setup was refused (EPERM)", load.Error, StringComparison.Ordinal);
        Assert.Single(load.Error.Trim().Split('\n'));
    }
}

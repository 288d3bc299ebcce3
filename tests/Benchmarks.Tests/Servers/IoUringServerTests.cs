using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// The io_uring server model as a real process: its own options (one loop, the kernel's
/// submission thread), and where io_uring is forbidden — by a seccomp filter, as container
/// runtimes forbid it — unavailable with that cause and refused in one line before anything starts.
/// The rest of what a raw server must do (limits, faults, fuzzing, graceful close, allocation,
/// database and TCP scenarios) is in the raw-server tests, which run it beside sockets and libuv.
/// </summary>
public sealed class IoUringServerTests
{
    private const string Get = "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n";
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(1);

    [Theory]
    [InlineData("loops=1")]
    [InlineData("loops=1", "sqpoll=true")]
    public async Task One_loop_with_or_without_the_kernels_submission_thread_answers_pipelined_requests_in_order(params string[] options)
    {
        await using var serve = await ServeProcess.StartAsync("iouring", options: options);
        for (var round = 0; round < 3; round++)
        {
            using var client = await RawClient.ConnectAsync(serve.Port);
            var batch = string.Concat(Enumerable.Range(0, 16).Select(i => i == 7 ? "GET /missing HTTP/1.1\r\nHost: t\r\n\r\n" : Get));
            await client.SendAsync(batch);
            var (text, _) = await client.ReadAsync(t => Regex.Count(t, "HTTP/1.1 ") == 16 && t.EndsWith("Hello, World!", StringComparison.Ordinal));
            var statuses = Regex.Matches(text, @"HTTP/1\.1 (\d{3})").Select(m => m.Groups[1].Value).ToList();
            Assert.Equal(16, statuses.Count);
            Assert.Equal("404", statuses[7]);
            Assert.Contains("Server: Benchmarks-IoUring\r\n", text, StringComparison.Ordinal);
        }

        Assert.Equal(0, await serve.StopAsync());
    }

    [Fact]
    public async Task Where_a_seccomp_filter_forbids_io_uring_the_server_is_unavailable_with_that_cause_and_a_run_is_refused()
    {
        var filter = Path.Combine(TestPaths.RepoRoot, "eng", "no-io-uring.py");
        var folder = TestPaths.NewTempDirectory();
        var environment = new Dictionary<string, string>();
        var servers = await HostRun.StartProcessAsync(folder, s_timeout, environment, "python3", filter, TestPaths.HostExecutable, "servers");
        Assert.True(servers.ExitCode == 0, servers.ToString());
        var line = servers.Output.Split('\n').Single(l => l.StartsWith("iouring ", StringComparison.Ordinal));
        Assert.Contains("unavailable: io_uring_setup was refused (EPERM): a seccomp filter forbids it", line, StringComparison.Ordinal);
        Assert.Contains(servers.Output.Split('\n'),
            l => l.StartsWith("sockets ", StringComparison.Ordinal) && l.Contains("[available]", StringComparison.Ordinal));

        var run = await HostRun.StartProcessAsync(folder, s_timeout, environment, "python3", filter, TestPaths.HostExecutable, "run", "plaintext", "--server",
            "iouring", "-d", "1s", "--results", folder);
        Assert.Equal(2, run.ExitCode);
        Assert.Single(run.Error.Trim().Split('\n'));
        Assert.Contains("Server 'iouring' cannot run here: io_uring_setup was refused (EPERM)", run.Error, StringComparison.Ordinal);

        // Another server runs there, and the run says what io_uring's probe found on its machine.
        var sockets = await HostRun.StartProcessAsync(folder, s_timeout, environment, "python3", filter, TestPaths.HostExecutable, "run", "plaintext",
            "--server", "sockets", "-c", "4", "-d", "1s", "-w", "0s", "--results", folder);
        Assert.True(sockets.ExitCode == 0, sockets.ToString());
        var stored = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(Directory.GetFiles(folder, "*-plaintext-sockets-*.json").Single()))!;
        Assert.StartsWith("io_uring_setup was refused (EPERM): a seccomp filter forbids it", stored["environment"]!["ioUring"]!.ToString(),
            StringComparison.Ordinal);

        // Without the filter, the same machine has it.
        var unfiltered = await HostRun.StartAsync(folder, s_timeout, "servers");
        Assert.Contains(unfiltered.Output.Split('\n'),
            l => l.StartsWith("iouring ", StringComparison.Ordinal) && l.Contains("[available]", StringComparison.Ordinal));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("loops=0", "iouring option 'loops' must be a number from 1 to 1024 (got '0').")]
    [InlineData("sqpoll=maybe", "iouring option 'sqpoll' must be true or false (got 'maybe').")]
    [InlineData("rings=2", "Unknown iouring option 'rings'. Known: loops, sqpoll, requestTimeout")]
    public async Task A_bad_option_is_refused_in_one_line(string option, string message)
    {
        var (exitCode, _, error) = await InProcessCli.InvokeAsync("run", "plaintext", "--server", "iouring", "--server-option", option);
        Assert.Equal(2, exitCode);
        Assert.Contains(message, error, StringComparison.Ordinal);
        Assert.Single(error.Trim().Split('\n'));
    }
}

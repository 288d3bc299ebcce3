using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Proxies;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Hardening;

/// <summary>
/// The processes a run starts that are not .NET (nginx, HAProxy, PostgreSQL): a proxy must prove the
/// port is its own, a proxy that dies fails the run, and a run killed outright (SIGKILL) leaves
/// nothing the next run does not stop.
/// </summary>
[LongRunning]
public sealed class LeftoverTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Theory]
    [InlineData("nginx")]
    [InlineData("haproxy")]
    public async Task A_port_another_program_answers_on_is_never_taken_for_the_proxy(string tool)
    {
        var kind = tool == "nginx" ? ProxyKind.Nginx : ProxyKind.Haproxy;
        Tools.Require(tool);

        // An intruder that answers every request 200, on the port the proxy is given.
        using var intruder = new TcpListener(IPAddress.Loopback, 0);
        intruder.Start();
        using var stop = new CancellationTokenSource();
        var answering = AnswerAllAsync(intruder, stop.Token);
        var port = ((IPEndPoint)intruder.LocalEndpoint).Port;
        var error = await Assert.ThrowsAsync<ProxyUnavailableException>(() =>
            ReverseProxy.StartAsync(kind, new Uri("http://127.0.0.1:1/"), port, null, OsPlatform.CreateProcessControl(), CancellationToken.None));
        Assert.Contains(tool, error.Message, StringComparison.Ordinal);
        await stop.CancelAsync();
        intruder.Stop();
        await answering;
    }

    [Fact]
    public async Task A_proxy_master_killed_mid_run_fails_the_run_and_its_workers_are_stopped()
    {
        Tools.Require("nginx");
        var temp = TestPaths.NewTempDirectory();
        var results = TestPaths.NewTempDirectory();
        using var run = LiveHostRun.Start(results, new Dictionary<string, string> { ["TMPDIR"] = temp },
            "run", "plaintext", "--server", "sockets", "--proxy", "nginx", "--proxy-cpus", "0-1", "-c", "16", "-d", "20s", "-w", "0s", "--no-verify",
            "--results", results);
        await run.WaitForOutputAsync("req/s | server cpu", TimeSpan.FromSeconds(60));
        var pids = ScratchFolders.ReadIds(Path.Combine(Directory.GetDirectories(temp, "benchmarks-proxy-*").Single(), "pids"));
        Assert.True(pids.Count >= 2, "the master and its workers are written down");
        Kill(pids[0]);
        var exit = await run.WaitForExitAsync(TimeSpan.FromSeconds(30));
        Assert.True(exit == 1, $"exit {exit}\n{run}");
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.StartsWith($"the proxy (nginx, pid {pids[0]}) exited during the run", document.Error, StringComparison.Ordinal);
        Assert.True(document.Measurements["http/requests"] > 0, "what was measured before is kept");
        Assert.All(pids, id => Assert.False(Alive(id), $"nginx process {id} was left running"));
        Assert.Empty(Directory.GetDirectories(temp, "benchmarks-proxy-*"));
    }

    [Fact]
    public async Task After_a_run_killed_outright_the_next_run_stops_its_database_and_proxy()
    {
        Tools.Require("nginx");
        var temp = TestPaths.NewTempDirectory();
        var environment = new Dictionary<string, string> { ["TMPDIR"] = temp };
        var results = TestPaths.NewTempDirectory();

        using (var proxied = LiveHostRun.Start(results, environment, "run", "plaintext", "--server", "sockets", "--proxy", "nginx", "-d", "30s", "-w", "0s",
            "--no-verify", "--results", results))
        {
            await proxied.WaitForOutputAsync("req/s | server cpu", TimeSpan.FromSeconds(60));
            await proxied.SignalAsync("KILL");
            await proxied.WaitForExitAsync(TimeSpan.FromSeconds(10));
        }

        var proxyPids = ScratchFolders.ReadIds(Path.Combine(Directory.GetDirectories(temp, "benchmarks-proxy-*").Single(), "pids"));
        Assert.All(proxyPids, id => Assert.True(Alive(id), "SIGKILL leaves the proxy running until the next run"));

        // The next run, a database one, stops that proxy as it starts; killed in turn, it leaves its cluster to the run after it.
        using (var database = LiveHostRun.Start(results, environment, "run", "db", "--server", "sockets", "-d", "30s", "-w", "0s", "--no-verify", "--results",
            results))
        {
            await database.WaitForOutputAsync("req/s | server cpu", TimeSpan.FromSeconds(90));
            Assert.All(proxyPids, id => Assert.False(Alive(id), $"nginx process {id} is still running"));
            Assert.Empty(Directory.GetDirectories(temp, "benchmarks-proxy-*"));
            await database.SignalAsync("KILL");
            await database.WaitForExitAsync(TimeSpan.FromSeconds(10));
        }

        var data = Path.Combine(Directory.GetDirectories(temp, "benchmarks-db-*").Single(), "data");
        var postmaster = int.Parse(File.ReadLines(Path.Combine(data, "postmaster.pid")).First(), CultureInfo.InvariantCulture);
        Assert.True(Alive(postmaster), "SIGKILL leaves the database running until the next run");

        var next = await HostRun.StartAsync(results, s_timeout, environment, "run", "plaintext", "--server", "sockets", "-d", "1s", "-w", "0s", "--no-verify",
            "--results", results);
        Assert.True(next.ExitCode == 0, next.ToString());
        Assert.False(Alive(postmaster), "the postmaster is still running");
        Assert.DoesNotContain(ProcessTable.WithArgument(data), Alive);
        Assert.Empty(Directory.GetDirectories(temp, "benchmarks-db-*"));
    }

    private static bool Alive(int id) =>
        File.Exists($"/proc/{id}/stat") && !File.ReadAllText($"/proc/{id}/stat").Split(' ')[2].Equals("Z", StringComparison.Ordinal);

    private static void Kill(int id)
    {
        using var process = System.Diagnostics.Process.GetProcessById(id);
        process.Kill();
    }

    private static async Task AnswerAllAsync(TcpListener listener, CancellationToken cancellationToken)
    {
        try
        {
            while (true)
            {
                using var socket = await listener.AcceptSocketAsync(cancellationToken);
                var buffer = new byte[4096];
                await socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken);
                await socket.SendAsync("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"u8.ToArray(), SocketFlags.None,
                    cancellationToken);
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
        }
    }
}

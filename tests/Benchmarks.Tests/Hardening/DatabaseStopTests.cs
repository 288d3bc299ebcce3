using System.Diagnostics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Hardening;

/// <summary>A server that waits on the database still stops within its grace on SIGTERM, under load.</summary>
public sealed class DatabaseStopTests
{
    [Fact]
    public async Task Ctrl_c_during_the_check_of_a_silent_database_ends_the_run_as_interrupted()
    {
        // A listener that accepts and never answers, and a connection string that would wait forever.
        using var silent = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        silent.Start();
        var port = ((System.Net.IPEndPoint)silent.LocalEndpoint).Port;
        var results = TestPaths.NewTempDirectory();
        using var run = LiveHostRun.Start(results, null, "run", "db", "--server", "sockets", "--database",
            $"Host=127.0.0.1;Port={port};Username=u;Password=p;Database=d;Timeout=0", "-d", "1s", "--results", results);

        // Interrupted once the check has connected (a signal before the run began stores nothing: there was no run).
        using var checking = await silent.AcceptSocketAsync().WaitAsync(TimeSpan.FromSeconds(30));
        await Task.Delay(TimeSpan.FromMilliseconds(300));
        var interrupted = Stopwatch.StartNew();
        await run.SignalAsync("INT");
        var exit = await run.WaitForExitAsync(TimeSpan.FromSeconds(20));
        Assert.True(exit == 130, $"exit {exit} (130: interrupted, not 1: failed)\n{run}");
        Assert.InRange(interrupted.Elapsed.TotalSeconds, 0, 5);
        var document = StoredRuns.Single(results);
        Assert.Equal("the run was interrupted (Ctrl+C) before it finished", document.Error);
    }

    [Fact]
    public async Task The_sockets_server_with_queries_in_flight_stops_on_sigterm_within_its_grace()
    {
        var database = await HelloWorldDatabase.CreateAsync();
        for (var round = 0; round < 3; round++)
        {
            await using var serve = await ServeProcess.StartAsync("sockets", "queries",
                environment: new Dictionary<string, string> { ["BENCHMARKS_DATABASE"] = database });
            using var load = LiveHostRun.Start(TestPaths.NewTempDirectory(), null, "load", "--url", $"http://127.0.0.1:{serve.Port}/queries?queries=20", "-c",
                "64", "-d", "30s", "-w", "0s", "--progress");
            await Task.Delay(TimeSpan.FromSeconds(2));
            Assert.False(serve.HasExited, load.ToString());
            var stopping = Stopwatch.StartNew();
            using var kill = Process.Start("kill", ["-TERM", serve.Pid.ToString(System.Globalization.CultureInfo.InvariantCulture)])!;
            await kill.WaitForExitAsync();
            while (!serve.HasExited && stopping.Elapsed < TimeSpan.FromSeconds(20))
            {
                await Task.Delay(50);
            }

            // The grace is 5 s: requests in flight finish or are cut, and Npgsql's cancel requests must not wait on the socket engine's thread.
            Assert.True(serve.HasExited, $"round {round + 1}: the server was still running {stopping.Elapsed.TotalSeconds:0.0} s after SIGTERM");
            Assert.InRange(stopping.Elapsed.TotalSeconds, 0, 8);
        }
    }
}

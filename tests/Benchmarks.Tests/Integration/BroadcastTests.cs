using Benchmarks.Load.WebSockets;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>websocket-shootout's broadcast loop against real servers, and its total check against a lossy one.</summary>
public sealed class BroadcastTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("kestrel", false)]
    [InlineData("sockets", true)]
    public async Task Every_broadcast_reaches_every_client_and_each_step_is_reported(string server, bool binary)
    {
        await using var serve = await ServeProcess.StartAsync(server, "ws-broadcast");
        var lines = new List<BroadcastStep>();
        var result = await BroadcastLoadGenerator.RunAsync(new BroadcastOptions
        {
            Url = new Uri($"ws://127.0.0.1:{serve.Port}/ws"),
            InitialClients = 20,
            StepSize = 30,
            SampleSize = 25,
            Concurrent = 5,
            PayloadPadding = 16,
            TotalSteps = 3,
            Binary = binary,

            // This test is about delivery and reporting; a scheduling stall on a busy two-core machine must not end the steps early.
            LimitRtt = TimeSpan.FromSeconds(30),
        }, lines.Add, CancellationToken.None);

        Assert.True(result.IsClean,
            $"error: {result.FirstError}; received {result.ReceivedBroadcasts} of {result.ExpectedBroadcasts}; steps {string.Join(" | ", lines)}");
        Assert.Equal([20, 50, 80], lines.Select(l => l.Clients));
        Assert.Equal((20 + 50 + 80) * 25, result.ExpectedBroadcasts);
        Assert.Equal(result.ExpectedBroadcasts, result.ReceivedBroadcasts);
        Assert.Equal(80, result.MaxClientsUnderLimit);
        Assert.All(lines, l => Assert.True(l.MinRtt <= l.MedianRtt && l.MedianRtt <= l.PercentileRtt && l.PercentileRtt <= l.MaxRtt));
        Assert.Matches(@"^clients:\s+20\s+95per-rtt:\s+\d+ms\s+min-rtt:\s+\d+ms\s+median-rtt:\s+\d+ms\s+max-rtt:\s+\d+ms$",
            BroadcastLoadGenerator.Format(lines[0], 95));
    }

    [Fact]
    public async Task Stepping_stops_at_the_first_step_past_the_limit()
    {
        await using var serve = await ServeProcess.StartAsync("kestrel", "ws-broadcast");
        var result = await BroadcastLoadGenerator.RunAsync(new BroadcastOptions
        {
            Url = new Uri($"ws://127.0.0.1:{serve.Port}/ws"),
            InitialClients = 10,
            StepSize = 10,
            SampleSize = 10,
            LimitRtt = TimeSpan.FromTicks(1),
        }, null, CancellationToken.None);

        Assert.Single(result.Steps);
        Assert.Equal(0, result.MaxClientsUnderLimit);
        Assert.Equal(100, result.ExpectedBroadcasts);
        Assert.Equal(100, result.ReceivedBroadcasts);
    }

    [Fact]
    public async Task A_server_that_loses_broadcasts_fails_the_total_check_and_the_run()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "ws-lossy-broadcast", "--plugins", TestPaths.SamplePluginDirectory,
            "--ws-mode", "broadcast", "--initial-clients", "5", "--step-size", "5", "--sample-size", "20", "--total-steps", "2", "--results", results);

        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains("the broadcast count is wrong", document.Error, StringComparison.Ordinal);
        Assert.True(document.Measurements["ws/broadcast/received"] < document.Measurements["ws/broadcast/expected"]);
    }

    [Fact]
    public async Task Run_ws_broadcast_stores_the_largest_client_count()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "ws-broadcast", "--server", "sockets",
            "--initial-clients", "10", "--step-size", "10", "--sample-size", "10", "--total-steps", "2", "--results", results);

        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(20, document.Measurements["ws/broadcast/clients"]);
        Assert.Equal(300, document.Measurements["ws/broadcast/received"]);
    }

    [Theory]
    [InlineData("--step-size", "0", "must be at least 1")]
    [InlineData("--limit-percentile", "150", "--limit-percentile must be in (0, 100]")]
    public async Task Bad_broadcast_arguments_exit_2(string option, string value, string expected)
    {
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "load", "--ws", "--ws-mode", "broadcast", "--url", "ws://127.0.0.1:1/ws",
            option, value);
        Assert.Equal(2, run.ExitCode);
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
    }
}

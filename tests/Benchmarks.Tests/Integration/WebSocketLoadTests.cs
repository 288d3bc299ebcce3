using Benchmarks.Host.Platform;
using Benchmarks.Load.WebSockets;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>The WebSocket generator against real servers: exact counts, broken protocols, refused connections.</summary>
[LongRunning]
public sealed class WebSocketLoadTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("kestrel", WebSocketLoadMode.EchoSync, EchoMessageKind.Text)]
    [InlineData("kestrel", WebSocketLoadMode.EchoAsync, EchoMessageKind.Json)]
    [InlineData("sockets", WebSocketLoadMode.EchoSync, EchoMessageKind.Binary)]
    [InlineData("sockets", WebSocketLoadMode.EchoAsync, EchoMessageKind.Text)]
    public async Task Echo_counts_are_exact_and_every_reply_follows_the_rule(string server, WebSocketLoadMode mode, EchoMessageKind kind)
    {
        await using var serve = await ServeProcess.StartAsync(server, "ws-echo");
        var route = kind switch { EchoMessageKind.Json => "/json", EchoMessageKind.Binary => "/binary", _ => "/plain" };
        var result = await WebSocketLoadGenerator.RunAsync(new WebSocketLoadOptions
        { Warmup = TimeSpan.Zero,
            Url = new Uri($"ws://127.0.0.1:{serve.Port}{route}"),
            Mode = mode,
            Message = kind,
            Connections = 8,
            Window = 20,
            Duration = TimeSpan.FromSeconds(1.5),
        }, null, CancellationToken.None);

        Assert.True(result.IsClean, $"{result.FirstError}");
        Assert.True(result.Good > 0);
        Assert.Equal(0, result.Bad);
        Assert.Equal(0, result.Errors);
        Assert.Equal(result.Sent, result.Good + result.Bad + result.Lost + result.Unfinished);
        Assert.True(result.RoundTrip.P50 > 0);
    }

    [Fact]
    public async Task Async_echo_keeps_many_messages_in_flight_and_beats_sync()
    {
        await using var serve = await ServeProcess.StartAsync("sockets", "ws-echo");
        var options = new WebSocketLoadOptions { Warmup = TimeSpan.Zero, Url = new Uri($"ws://127.0.0.1:{serve.Port}/json"), Message = EchoMessageKind.Json,
            Connections = 4, Duration = TimeSpan.FromSeconds(1.5) };
        var sync = await WebSocketLoadGenerator.RunAsync(options, null, CancellationToken.None);
        var async = await WebSocketLoadGenerator.RunAsync(options with { Mode = WebSocketLoadMode.EchoAsync, Window = 64 }, null, CancellationToken.None);

        Assert.True(sync.IsClean && async.IsClean);

        // Not a timed target: with 64 in flight per connection the pipe stays full, so the count must be higher.
        Assert.True(async.Good > sync.Good, $"async {async.Good} vs sync {sync.Good}");
    }

    [Fact]
    public async Task A_server_that_breaks_the_parity_rule_fails_the_load_and_the_run()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "ws-wrong-parity", "--plugins", TestPaths.SamplePluginDirectory, "-d", "1s", "-w", "0s",
            "--results", results);

        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains("the echo protocol was broken", document.Error, StringComparison.Ordinal);
        Assert.True(document.Measurements["ws/messages/bad"] > 0);
        Assert.Equal(0, document.Measurements["ws/messages"]);
    }

    [Theory]
    [InlineData("echo-sync")]
    [InlineData("echo-async")]
    public async Task A_server_that_stops_answering_is_reported_as_errors_with_the_cause(string mode)
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "ws-silent", "--plugins", TestPaths.SamplePluginDirectory, "--ws-mode", mode,
            "-c", "2", "-d", "4s", "-w", "0s", "--timeout", "2s", "--results", results);

        // A timeout long enough for the handshake on a busy machine; the silence outlasts it.
        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains("no reply within 2 s", document.Error, StringComparison.Ordinal);
        Assert.True(document.Measurements["ws/errors"] > 0);
        Assert.Equal(0, document.Measurements["ws/messages"]);
    }

    [Fact]
    public async Task Connections_are_spread_over_local_addresses()
    {
        await using var serve = await ServeProcess.StartAsync("sockets", "ws-echo");
        var result = await WebSocketLoadGenerator.RunAsync(new WebSocketLoadOptions
        { Warmup = TimeSpan.Zero,
            Url = new Uri($"ws://127.0.0.1:{serve.Port}/plain"),
            Connections = 4,
            // Long enough for a cold server's first echoes on a machine busy with other tests (1 s was not).
            Duration = TimeSpan.FromSeconds(3),
            LocalAddresses = [System.Net.IPAddress.Parse("127.0.0.2"), System.Net.IPAddress.Parse("127.0.0.3")],
        }, null, CancellationToken.None);

        Assert.True(result.IsClean, result.FirstError);
        Assert.True(result.Good > 0);

        // The bind really happens: an address this machine does not have cannot be a source.
        var unassigned = await WebSocketLoadGenerator.RunAsync(new WebSocketLoadOptions
        { Warmup = TimeSpan.Zero,
            Url = new Uri($"ws://127.0.0.1:{serve.Port}/plain"),
            Connections = 2,
            Duration = TimeSpan.FromSeconds(1),
            LocalAddresses = [System.Net.IPAddress.Parse("192.0.2.1")],
        }, null, CancellationToken.None);
        Assert.Equal(0, unassigned.Good);
        Assert.True(unassigned.Errors > 0);
        Assert.Contains("assign", unassigned.FirstError, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task Refused_connections_are_errors_in_connect_mode()
    {
        var result = await WebSocketLoadGenerator.RunAsync(new WebSocketLoadOptions
        { Warmup = TimeSpan.Zero,
            Url = new Uri($"ws://127.0.0.1:{LoopbackPort.Free()}/connection"),
            Mode = WebSocketLoadMode.Connect,
            Connections = 4,
            Duration = TimeSpan.FromSeconds(1),
        }, null, CancellationToken.None);

        Assert.True(result.Errors > 0);
        Assert.Equal(0, result.Connects);
        Assert.False(result.IsClean);
        Assert.Contains("refused", result.FirstError, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData("kestrel")]
    [InlineData("sockets")]
    public async Task Run_ws_echo_and_ws_connect_store_websocket_measurements(string server)
    {
        foreach (var scenario in new[] { "ws-echo", "ws-connect" })
        {
            var results = TestPaths.NewTempDirectory();
            var run = await HostRun.StartAsync(results, s_timeout, "run", scenario, "--server", server, "-c", "8", "-d", "1s", "-w", "1s", "--results",
                results);
            Assert.True(run.ExitCode == 0, run.ToString());
            var document = StoredRuns.Single(results);
            Assert.Equal("ws", document.Load);
            var rate = scenario == "ws-echo" ? "ws/messages/rate" : "ws/connects/rate";
            Assert.True(document.Measurements[rate] > 0);
            Assert.Equal(0, document.Measurements["ws/errors"]);

            // Measured, not necessarily above 0: the kernel counts CPU in 10 ms ticks, and beside the parallel tier a
            // second of a few connects got less than one.
            Assert.True(document.Measurements.TryGetValue("benchmarks/cpu", out var cpu) && cpu >= 0, "no server CPU measured");
        }
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("unknown", "Argument 'unknown' not recognized", "--ws-mode", "unknown")]
    [InlineData("address", "Invalid --local-address 'x'", "--local-address", "x")]
    [InlineData("window", "--window must be at least 1", "--window", "0")]
    public async Task Bad_websocket_arguments_exit_2(string _, string expected, params string[] arguments)
    {
        var run = await InProcessCli.InvokeAsync(["load", "--ws", "--url", "ws://127.0.0.1:1/plain", "-d", "1s", .. arguments]);
        Assert.Equal(2, run.ExitCode);
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
    }
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tls;

/// <summary>
/// Whole runs over TLS and HTTP/2: the server started with the wire, checked over it, loaded over
/// it (the built-in load over TLS; h2load for HTTP/2), and the document saying which wire it was.
/// Nothing here is a speed, so it runs in the parallel tier.
/// </summary>
[LongRunning]
public sealed class TlsRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task A_run_over_tls_without_keep_alive_measures_a_handshake_per_request()
    {
        // A request times out after 10 s, not 2: beside the parallel tests the machine is 100% busy, and a
        // connect and handshake took up to 1.9 s there (p99), which a 2 s timeout counted as a failed run.
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "sockets", "--tls", "--certificate-key", "ecdsa-p256",
            "--keep-alive", "false", "-c", "16", "-d", "2s", "-w", "1s", "-T", "10s", "--trace-seconds", "1s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("Verified:", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal("https", document.Parameters["protocol"]);
        Assert.Equal("ecdsa-p256", document.Parameters["certificate"]);
        Assert.StartsWith("https://", document.Parameters["url"], StringComparison.Ordinal);
        var m = document.Measurements;
        Assert.InRange(m["http/tls/handshakes/rate"] / m["http/rps/mean"], 0.9, 1.1);
        Assert.True(m["http/tls/handshake/99"] > 0 && m["http/tls/handshake/errors"] == 0, run.ToString());
        Assert.Equal("ms", document.Metadata["http/tls/handshake/99"].Unit);

        // Traced for a second: the share of the server's samples in TLS, a handshake per request, is a clause of the verdict.
        var trace = document.Trace!;
        Assert.True(trace.TlsPercent is >= 1 and <= 100,
            $"TLS {trace.TlsPercent}% of the working samples ({trace.Samples} samples, {trace.WaitingPercent:0.#}% waiting)");
        Assert.Contains("TLS: ", document.Bottleneck, StringComparison.Ordinal);
    }

    /// <summary>
    /// h2 by h2load, h2c by the built-in load (the built-in load over h2 is checked against Kestrel
    /// and nginx in <c>Http2LoadTests</c>, h2load over h2c in <see cref="TlsPeerTests"/>): streams
    /// per connection, latency, the run's document.
    /// </summary>
    [Theory]
    [InlineData("h2", "h2load")]
    [InlineData("h2c", "builtin")]
    public async Task An_http2_run_is_loaded_with_streams_per_connection(string protocol, string generator)
    {
        Tools.Require("h2load");
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "json", "--server", "kestrel", "--protocol", protocol, "--generator", generator,
            "--streams", "4", "-c", "8", "-d", "2s", "-w", "1s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("Verified:", run.Output, StringComparison.Ordinal);
        Assert.Contains($"{(generator == "builtin" ? "http" : "h2load")} loading {(protocol == "h2" ? "https" : "http")}://127.0.0.1", run.Output,
            StringComparison.Ordinal);
        Assert.Contains($"{protocol}, 4 streams per connection", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal(generator == "builtin" ? "http" : "h2load", document.Load);
        Assert.Equal(protocol, document.Parameters["protocol"]);
        var m = document.Measurements;
        Assert.True(m["http/rps/mean"] > 0 && m["http/requests/errors"] == 0 && m["http/requests/badresponses"] == 0, run.ToString());
        Assert.True(m["http/latency/99"] >= m["http/latency/50"] && m["http/latency/50"] > 0, run.ToString());
        Assert.True(m["benchmarks/cpu"] > 0, "the server's CPU is sampled as in any run");
    }

    [Fact]
    public async Task A_websocket_run_over_tls_upgrades_and_echoes_through_wss()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "ws-echo", "--server", "sockets", "--tls", "-d", "2s", "-w", "1s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains("loading wss://127.0.0.1:", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal("https", document.Parameters["protocol"]);
        var m = document.Measurements;

        // What the window sent is accounted for, reply by reply, in the stored document as in the load's result;
        // a failure says which part was missing (nothing sent, or sent and never answered).
        var counts = $"sent {m["ws/messages/sent"]}, followed {m["ws/messages"]}, broke {m["ws/messages/bad"]}, lost {m["ws/messages/lost"]}, " +
            $"unfinished {m["ws/messages/unfinished"]}, handshakes {m["ws/handshakes"]}";
        Assert.True(m["ws/messages/rate"] > 0 && m["ws/errors"] == 0, $"{counts}\n{run}");
        Assert.True(m["ws/messages/sent"] == m["ws/messages"] + m["ws/messages/bad"] + m["ws/messages/lost"] + m["ws/messages/unfinished"], counts);
    }
}

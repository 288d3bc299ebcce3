using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.OpenModel;

/// <summary>
/// The open model (--rate) against test servers on real sockets: one that stalls, one that can
/// only serve so much. Latency is timed from each request's due time, and a rate not met is said.
/// </summary>
public sealed class OpenModelTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    private static string[] Faulty(string results, params string[] more) =>
        ["run", "plaintext", "--server", "faulty", "--plugins", TestPaths.SamplePluginDirectory, "--no-verify", "--results", results, .. more];

    [Fact]
    public async Task A_stall_shows_in_the_corrected_p99_and_only_in_the_max_of_the_closed_loop()
    {
        // The server stops answering for 500 ms in every 2 s.
        string[] stalls = ["--server-option", "stallMs=500", "--server-option", "stallEveryMs=2000", "-c", "8", "-d", "6s", "-w", "1s"];
        var results = TestPaths.NewTempDirectory();
        var open = await HostRun.StartAsync(results, s_timeout, Faulty(results, [.. stalls, "--rate", "1000"]));
        Assert.True(open.ExitCode == 0, open.ToString());
        var run = StoredRuns.Single(results);
        var m = run.Measurements;
        Assert.Equal("1000", run.Parameters["rate"]);
        Assert.True(m["http/latency/99"] >= 400, $"corrected p99 {m["http/latency/99"]} ms");
        Assert.True(m["http/latency/uncorrected/99"] < 100, $"uncorrected p99 {m["http/latency/uncorrected/99"]} ms");
        Assert.InRange(m["http/rps/mean"], 990, 1010);
        Assert.Equal(0, m["http/rate/shortfall"]);
        Assert.True(m["http/requests/late"] > 0, "requests due in a stall wait for a connection and are late");
        Assert.DoesNotContain("short of the requested rate", run.Bottleneck ?? "", StringComparison.Ordinal);

        // The closed loop on the same server: its p99 hides the stall, only its max shows it.
        var closedResults = TestPaths.NewTempDirectory();
        var closed = await HostRun.StartAsync(closedResults, s_timeout, Faulty(closedResults, stalls));
        Assert.True(closed.ExitCode == 0, closed.ToString());
        var c = StoredRuns.Single(closedResults).Measurements;
        Assert.True(c["http/latency/99"] < 50, $"closed-loop p99 {c["http/latency/99"]} ms");
        Assert.True(c["http/latency/max"] >= 400, $"closed-loop max {c["http/latency/max"]} ms");
        Assert.False(c.ContainsKey("http/latency/uncorrected/99"));
    }

    [Fact]
    public async Task A_server_that_serves_half_the_rate_is_marked_short_and_named()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, Faulty(results, "--server-option", "maxRate=500", "--rate", "1000", "-c", "16", "-d", "4s", "-w", "1s"));
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.InRange(document.Measurements["http/rps/mean"], 400, 560);
        Assert.True(document.Measurements["http/rate/shortfall"] > 40);
        Assert.True(document.Measurements["http/requests/backlog"] > 0);
        Assert.StartsWith("short of the requested rate:", document.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("the server could not keep up", document.Bottleneck, StringComparison.Ordinal);
        Assert.Contains("bound: short of the requested rate", run.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--pipeline", "16", "--pipeline must be 1")]
    [InlineData("--load", "wrk", "--rate needs the built-in HTTP load")]
    [InlineData("--rate", "fast", "Invalid rate 'fast'")]
    public async Task A_rate_that_cannot_work_is_refused_in_one_line(string option, string value, string message)
    {
        var results = TestPaths.NewTempDirectory();
        string[] rate = option == "--rate" ? [] : ["--rate", "1000"];
        var run = await HostRun.StartAsync(results, s_timeout, ["run", "plaintext", .. rate, option, value, "--results", results]);
        Assert.Equal(2, run.ExitCode);
        Assert.Contains(message, run.Error, StringComparison.Ordinal);
    }
}

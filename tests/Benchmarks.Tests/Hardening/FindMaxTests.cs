using Benchmarks.Host.Runs;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Hardening;

/// <summary>find-max gives an answer only when its search finished, and comes down from a start far too high in a step.</summary>
[Collection(Measuring.Name)]
public sealed class FindMaxTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_start_far_above_what_the_server_achieves_comes_down_to_what_it_achieved_at_once()
    {
        var search = new RateSearch(10_000_000);
        Assert.True(search.Record(false, "p99 was 900 ms", null, 23_456, out var confirming));
        Assert.False(confirming);
        Assert.Equal(23_000, search.Rate);

        // A near miss is still confirmed by a second step at the same rate.
        var near = new RateSearch(20_000);
        Assert.True(near.Record(false, "p99 was 12 ms", null, 19_000, out var again));
        Assert.True(again);
        Assert.Equal(20_000, near.Rate);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_miss_short_of_its_rate_sends_the_search_to_just_above_what_the_server_achieved()
    {
        // A server that serves about 2,000 req/s: 500, 1,000 and 2,000 meet; 4,000 achieves 2,002.
        var search = new RateSearch(500);
        Assert.True(search.Record(true, "met", null, 500, out _));
        Assert.True(search.Record(true, "met", null, 1_000, out _));
        Assert.True(search.Record(true, "met", null, 2_000, out _));
        Assert.True(search.Record(false, "the rate was not met (50% short)", null, 2_002, out var confirming));
        Assert.True(confirming);
        Assert.True(search.Record(false, "the rate was not met (50% short)", null, 2_007, out _));

        // Not the midpoint (3,000), which the server cannot serve either: just above its ceiling,
        // so the search ends in seven steps, not fifteen.
        Assert.Equal(2_100, search.Rate);
        Assert.True(search.Record(false, "the rate was not met (5% short)", null, 2_000, out confirming));
        Assert.True(confirming);
        Assert.False(search.Record(false, "the rate was not met (5% short)", null, 2_000, out _));
        Assert.Equal(2_000, search.BestRate);
        Assert.Equal(2_100, search.Missed!.Value.Rate);

        // A miss on latency alone, its rate achieved, still halves the interval.
        var latency = new RateSearch(1_000);
        Assert.True(latency.Record(true, "met", null, 1_000, out _));
        Assert.True(latency.Record(false, "p99 was 80 ms", null, 2_000, out _));
        Assert.True(latency.Record(false, "p99 was 80 ms", null, 2_000, out _));
        Assert.Equal(1_500, latency.Rate);
    }

    [MeasuredFact]
    public async Task An_interrupted_search_gives_no_answer_and_fails()
    {
        var results = TestPaths.NewTempDirectory();
        using var run = LiveHostRun.Start(results, null, "run", "plaintext", "--server", "sockets", "--no-verify", "--find-max", "--slo", "p99<100ms", "--rate",
            "1000", "-c", "8", "-d", "10s", "-w", "1s", "--results", results);
        await run.WaitForOutputAsync("req/s | server cpu", TimeSpan.FromSeconds(60));
        await run.SignalAsync("INT");
        var exit = await run.WaitForExitAsync(TimeSpan.FromSeconds(30));
        Assert.True(exit == 130, $"exit {exit}\n{run}");
        Assert.Contains("no answer, the search did not finish", run.Output, StringComparison.Ordinal);
        Assert.Contains("was interrupted", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("the highest rate meeting", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("NaN", run.Output, StringComparison.Ordinal);
    }
}

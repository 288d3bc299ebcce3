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

    [Fact]
    public async Task An_interrupted_search_gives_no_answer_and_fails()
    {
        var results = TestPaths.NewTempDirectory();
        using var run = LiveHostRun.Start(results, null, "run", "plaintext", "--server", "sockets", "--no-verify", "--find-max", "--slo", "p99<100ms", "--rate", "1000", "-c", "8", "-d", "10s", "-w", "1s", "--results", results);
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

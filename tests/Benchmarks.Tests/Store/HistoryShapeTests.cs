using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Store;

/// <summary>
/// A history follows like with like: runs of another load shape than the latest are left out and
/// counted, the grouping is named, and an empty band says why.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class HistoryShapeTests
{
    [Fact]
    public async Task Runs_of_another_load_shape_are_left_out_and_the_grouping_is_said()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        for (var i = 0; i < 10; i++)
        {
            // Every third run a sweep cell of 16 connections: far slower, and not the series' shape.
            var run = SampleRuns.Create(rps: i % 3 == 1 ? 20_000 : 100_000 + (i * 100), startedAt: start.AddDays(i));
            run.Parameters["connections"] = i % 3 == 1 ? "16" : "256";
            await store.WriteAsync(run, CancellationToken.None);
        }

        var history = await InProcessCli.InvokeAsync("history", "--scenario", "pipelined", "--server", "kestrel", "--results", results);
        Assert.True(history.ExitCode == 0, history.ToString());
        Assert.Contains("3 run(s) left out: another load shape or machine than the latest run's", history.Output, StringComparison.Ordinal);
        Assert.Contains("grouped by: http load, connections 256, pipeline 16", history.Output, StringComparison.Ordinal);
        Assert.Contains("no band for the first 7 run(s): a band needs 7 runs before it (--window)", history.Output, StringComparison.Ordinal);
        Assert.Contains("no result flagged", history.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("20,000", history.Output, StringComparison.Ordinal);
    }
}

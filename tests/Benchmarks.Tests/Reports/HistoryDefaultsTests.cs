using Benchmarks.Host.Store;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Reports;

/// <summary>A history follows the headline of the runs it reads, whatever their protocol, unless -m names another.</summary>
public sealed class HistoryDefaultsTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_tcp_history_follows_the_tcp_rate_and_labels_runs_of_one_minute_apart()
    {
        var results = TestPaths.NewTempDirectory();
        var store = new JsonFileRunStore(results);
        var start = new DateTimeOffset(2026, 11, 1, 12, 54, 0, TimeSpan.Zero);
        for (var i = 0; i < 3; i++)
        {
            var run = SampleRuns.Create(scenario: "tcp-echo", server: "sockets", startedAt: start.AddSeconds(10 * i));
            run.Load = "tcp";
            foreach (var name in run.Measurements.Keys.Where(k => k.StartsWith("http/", StringComparison.Ordinal)).ToList())
            {
                run.Measurements.Remove(name);
            }

            run.Measurements["tcp/responses/rate"] = 40_000 + (i * 1_000);
            await store.WriteAsync(run, CancellationToken.None);
        }

        var html = Path.Combine(results, "history.html");
        var history = await InProcessCli.InvokeAsync("report", "--scenario", "tcp-echo", "--server", "sockets", "--html", html, "--results", results);

        Assert.True(history.ExitCode == 0, history.ToString());
        Assert.Contains("tcp/responses/rate for ", history.Output, StringComparison.Ordinal);
        var page = await File.ReadAllTextAsync(html);
        Assert.Contains("tcp/responses/rate by run", page, StringComparison.Ordinal);

        // The band's rule with its numbers, and no band drawn or named where there is none (3 runs, a window of 7).
        Assert.Contains("the band is mean ± 2σ of the 7 runs before", page, StringComparison.Ordinal);
        Assert.Contains("No band for the first 3 run(s): a band needs 7 runs before it.", page, StringComparison.Ordinal);
        Assert.DoesNotContain("band: mean", page, StringComparison.Ordinal);

        // The answer first.
        Assert.Contains("<p class=\"answer\"><b>No result flagged: too few runs for a band (3; a band needs 7 before it).</b></p>", page,
            StringComparison.Ordinal);

        // Three runs in one minute: each labelled to the second, not three times "11-01 12:54".
        foreach (var label in new[] { "11-01 12:54:00", "11-01 12:54:10", "11-01 12:54:20" })
        {
            Assert.Contains($">{label}</text>", page, StringComparison.Ordinal);
        }
    }
}

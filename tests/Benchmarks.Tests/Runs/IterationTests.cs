using System.Text.RegularExpressions;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Reports;
using Benchmarks.Host.Runs;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary><c>run --iterations</c>: several windows on one server, their spread, and compare reading them as samples.</summary>
[LongRunning]
public sealed class IterationTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_spread_of_iterations_has_a_t_based_interval_that_stays_positive_for_a_positive_quantity()
    {
        // A quantity that can be negative: Student's t interval of the mean.
        var signed = IterationStatistics.Of([-2, 0, 2]);
        Assert.Equal(0 - (4.303 * 2 / Math.Sqrt(3)), signed.CiLow, 6);
        Assert.Equal(0 + (4.303 * 2 / Math.Sqrt(3)), signed.CiHigh, 6);

        // A positive one: t on the logarithms, turned back.
        var spread = IterationStatistics.Of([10, 12, 14]);
        Assert.Equal(12, spread.Mean, 9);
        Assert.Equal(12, spread.Median, 9);
        Assert.Equal(2, spread.StandardDeviation, 9);
        Assert.Equal(100.0 * 2 / 12, spread.CvPercent, 9);
        double[] logs = [Math.Log(10), Math.Log(12), Math.Log(14)];
        var logMean = logs.Average();
        var logHalf = 4.303 * Math.Sqrt(logs.Sum(v => (v - logMean) * (v - logMean)) / 2) / Math.Sqrt(3);
        Assert.Equal(Math.Exp(logMean - logHalf), spread.CiLow, 6);
        Assert.Equal(Math.Exp(logMean + logHalf), spread.CiHigh, 6);

        // Two iterations far apart: the mean's t interval would reach −444,534 req/s; this one stays above zero.
        var wide = IterationStatistics.Of([12_000, 90_000]);
        Assert.InRange(wide.CiLow, 0.01, 12_000);
        Assert.True(wide.CiHigh > 90_000);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Compare_reads_each_runs_iterations_as_samples()
    {
        RunDocument Run(double[] rates)
        {
            var run = SampleRuns.Create();
            IterationStatistics.Combine(run, [.. rates.Select(r => new SortedDictionary<string, double>(StringComparer.Ordinal) { ["http/rps/mean"] = r })]);
            return run;
        }

        // One run a side would be inconclusive; five iterations a side are enough to test.
        var row = Comparison.Create(
            new RunGroup("before", [Run([100, 101, 99, 100, 102])]),
            new RunGroup("after", [Run([120, 121, 119, 122, 120])]),
            new ComparisonSettings()).Rows.Single(r => r.Name == "http/rps/mean");
        Assert.Equal(ComparisonVerdict.Better, row.Verdict);
        Assert.Equal(5, row.Baseline.Count);
    }

    [Fact]
    public async Task A_run_with_three_iterations_keeps_each_and_reports_their_mean_and_spread()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(2), "run", "plaintext", "--server", "sockets", "-d", "2s", "-w", "1s", "-c", "16",
            "-i", "3", "--results", results);

        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(3, document.Iterations!.Count);
        var rates = document.Iterations.Select(i => i["http/rps/mean"]).ToList();
        Assert.Equal(rates.Average(), document.Measurements["http/rps/mean"], 6);
        var spread = document.Spread["http/rps/mean"];
        Assert.Equal(3, spread.Iterations);
        Assert.InRange(spread.Mean, spread.CiLow, spread.CiHigh);
        Assert.Equal([1, 2, 3], document.Samples.Select(s => s.Iteration ?? 0).Distinct().Order());
        Assert.True(document.Samples.Zip(document.Samples.Skip(1)).All(p => p.Second.Time > p.First.Time), "one time line across iterations");
        Assert.Equal("3", document.Parameters["iterations"]);

        // The first iteration's warm-up seconds are kept, and every second says how much the server's JIT compiled.
        Assert.NotEmpty(document.WarmupSamples);
        Assert.All(document.WarmupSamples, s => Assert.Equal(1, s.Iteration));
        Assert.Contains(document.Samples, s => s.Values.ContainsKey("benchmarks/jit"));
        Assert.True(document.Measurements.ContainsKey("benchmarks/jit"), string.Join(", ", document.Measurements.Keys));
        Assert.Contains("iterations: 3", run.Output, StringComparison.Ordinal);
        Assert.Contains("http/rps/mean: mean", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Restart_gives_each_iteration_a_fresh_server_and_exclude_leaves_out_the_highest_and_lowest()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(3), "run", "plaintext", "--server", "sockets", "-d", "2s", "-w", "1s", "-c", "16",
            "-i", "4", "--restart", "--exclude", "1", "--results", results);

        Assert.True(run.ExitCode == 0, run.ToString());
        var pids = Regex.Matches(run.Output, @"Server sockets ready \(pid (\d+)").Select(m => m.Groups[1].Value).ToList();
        Assert.Equal(4, pids.Distinct().Count());
        Assert.Equal(4, Regex.Count(run.Output, @"iteration \d/4 \(fresh server\)"));

        var document = StoredRuns.Single(results);
        var rates = document.Iterations!.Select(i => i["http/rps/mean"]).ToList();
        var lowest = rates.IndexOf(rates.Min()) + 1;
        var highest = rates.IndexOf(rates.Max()) + 1;
        Assert.Equal(new[] { lowest, highest }.Order(), document.ExcludedIterations);
        Assert.Equal("http/rps/mean", document.ExcludeOrder);
        var kept = rates.Where((_, i) => !document.ExcludedIterations.Contains(i + 1)).ToList();
        Assert.Equal(kept.Average(), document.Measurements["http/rps/mean"], 6);
        Assert.Equal(2, document.Spread["http/rps/mean"].Iterations);

        // Each fresh server warmed up: every iteration's warm-up seconds are kept.
        Assert.Equal([1, 2, 3, 4], document.WarmupSamples.Select(s => s.Iteration ?? 0).Distinct().Order());
        Assert.Contains("left out by http/rps/mean", run.Output, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("-i", "4", "--exclude", "2", "--exclude 2 leaves fewer than 2 of 4 iterations; run at least 6.")]
    [InlineData("-i", "3", "--exclude-order", "http/nope", "--exclude-order: unknown measurement 'http/nope'")]
    public async Task Impossible_exclusions_are_usage_errors(string a, string b, string c, string d, string expected)
    {
        var results = TestPaths.NewTempDirectory();
        var run = await InProcessCli.InvokeAsync("run", "plaintext", a, b, c, d, "--results", results);

        Assert.Equal(2, run.ExitCode);
        Assert.Contains(expected, run.Error, StringComparison.Ordinal);
        Assert.False(Directory.EnumerateFiles(results, "*.json").Any(), "nothing ran, nothing stored");
    }
}

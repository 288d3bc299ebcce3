using Benchmarks.Host.Jobs;
using Benchmarks.Host.Reports;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Cli;

/// <summary>
/// Small things a user reads: a header over the measurement list, a failed job's output without the
/// statistics block, a label report that says when nothing varies.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class SmallOutputTests
{
    [Fact]
    public async Task The_measurement_list_has_a_header_that_names_its_columns()
    {
        var run = await InProcessCli.InvokeAsync("measurements");
        Assert.True(run.ExitCode == 0, run.ToString());
        var first = run.Output.Split('\n')[0];
        Assert.StartsWith("name ", first, StringComparison.Ordinal);
        Assert.Contains("unit", first, StringComparison.Ordinal);
        Assert.Contains("better", first, StringComparison.Ordinal);
    }

    [Fact]
    public void A_failed_jobs_output_shows_the_statistics_block_as_one_line()
    {
        var tail = new OutputTail();
        foreach (var line in new[] { "Requests/sec: 10", "#StartJobStatistics", "{\"metadata\":["
            + new string('x', 4000)
            + "]}", "#EndJobStatistics", "[stderr] error: 3 socket errors" })
        {
            tail.Add(line);
        }

        var text = tail.Format(20);
        Assert.DoesNotContain("metadata", text, StringComparison.Ordinal);
        Assert.Contains("(the crank statistics block", text, StringComparison.Ordinal);
        Assert.Contains("Requests/sec: 10", text, StringComparison.Ordinal);
        Assert.EndsWith("error: 3 socket errors", text, StringComparison.Ordinal);
        Assert.True(text.Length < 400, $"{text.Length} characters");
    }

    [Fact]
    public void A_report_of_runs_that_differ_in_nothing_says_so()
    {
        var html = HtmlReport.Matrix("same", [SampleRuns.Create(), SampleRuns.Create()]);
        Assert.Contains("2 runs; nothing varies between them", html, StringComparison.Ordinal);
        Assert.DoesNotContain("varying: .", html, StringComparison.Ordinal);
    }
}

using Benchmarks.Host.Reports;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Reports;

/// <summary>A matrix row's status: ok, failed with its cause, or short of the requested rate by how much.</summary>
public sealed class MatrixCellsTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void An_open_model_step_that_fell_short_of_its_rate_says_so_instead_of_ok()
    {
        var status = MatrixTable.Columns.ToList().IndexOf("status");
        var met = SampleRuns.Create(rps: 1_000);
        met.Measurements["http/rate/requested"] = 1_000;
        met.Measurements["http/rate/shortfall"] = 0;
        Assert.Equal("ok", MatrixTable.Cells(met)[status]);

        var shortRun = SampleRuns.Create(rps: 701);
        shortRun.Measurements["http/rate/requested"] = 1_000;
        shortRun.Measurements["http/rate/shortfall"] = 29.9;
        Assert.Equal("short by 29.9%", MatrixTable.Cells(shortRun)[status]);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Runs_that_vary_along_no_number_are_drawn_in_order_each_named_by_its_start()
    {
        var start = new DateTimeOffset(2026, 11, 1, 9, 0, 0, TimeSpan.Zero);
        var runs = Enumerable.Range(0, 3).Select(i => SampleRuns.Create(server: i == 1 ? "sockets" : "kestrel", startedAt: start.AddMinutes(5 * i))).ToList();

        var html = HtmlReport.Matrix("label", runs);

        Assert.Contains("http/rps/mean by run", html, StringComparison.Ordinal);
        foreach (var label in new[] { "11-01 09:00", "11-01 09:05", "11-01 09:10" })
        {
            Assert.Contains($"class=\"x-tick\"", html, StringComparison.Ordinal);
            Assert.Contains($">{label}</text>", html, StringComparison.Ordinal);
        }

        Assert.DoesNotContain("run 0", html, StringComparison.Ordinal);
    }
}

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
}

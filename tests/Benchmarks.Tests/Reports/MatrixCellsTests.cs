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
    public void A_run_that_set_the_servers_runtime_shows_its_allocations_gc_pauses_and_working_set_and_another_run_leaves_them_out()
    {
        var columns = MatrixTable.Columns.ToList();
        var (allocated, pause, memory, own) = (columns.IndexOf("alloc B/req"), columns.IndexOf("GC pause %"),
            columns.IndexOf("working set MB at rest / loaded"), columns.IndexOf("private MB at rest / loaded"));
        var plain = SampleRuns.Create();
        plain.Measurements["runtime/allocated-per-request"] = 832.2;
        plain.Measurements["runtime/gc/pause"] = 0.46;
        plain.Measurements["benchmarks/working-set"] = 119.9;
        Assert.Equal(("", "", ""), (MatrixTable.Cells(plain)[allocated], MatrixTable.Cells(plain)[pause], MatrixTable.Cells(plain)[memory]));

        plain.Parameters["gc"] = "server";
        Assert.Equal(("832", "0.46", "- / 120"), (MatrixTable.Cells(plain)[allocated], MatrixTable.Cells(plain)[pause], MatrixTable.Cells(plain)[memory]));
        plain.Measurements["benchmarks/working-set/rest"] = 60.9;
        Assert.Equal("61 / 120", MatrixTable.Cells(plain)[memory]);
        Assert.Equal("", MatrixTable.Cells(plain)[own]);
        plain.Measurements["benchmarks/working-set/private"] = 80.4;
        plain.Measurements["benchmarks/working-set/private/rest"] = 30.2;
        Assert.Equal("30 / 80", MatrixTable.Cells(plain)[own]);
        Assert.Equal(MatrixTable.Columns.Count, MatrixTable.Cells(null).Count);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Servers_side_by_side_are_bars_with_the_answer_in_words_and_repeated_runs_stand_in_order()
    {
        var start = new DateTimeOffset(2026, 11, 1, 9, 0, 0, TimeSpan.Zero);
        var runs = Enumerable.Range(0, 4).Select(i => SampleRuns.Create(server: i % 2 == 1 ? "sockets" : "kestrel", rps: i % 2 == 1 ? 90_000 : 120_000,
            startedAt: start.AddMinutes(5 * i))).ToList();

        // Two servers: bars, one per server, and which was faster, by how much, said first.
        var html = HtmlReport.Matrix("label", runs);
        Assert.Contains("http/rps/mean by server (each the mean of its runs, req/s)", html, StringComparison.Ordinal);
        Assert.DoesNotContain("http/rps/mean by run", html, StringComparison.Ordinal);
        Assert.Contains(
            "<p class=\"answer\"><b>Highest http/rps/mean: server kestrel (120,000 req/s); lowest: server sockets (90,000 req/s), 1.33× apart.</b></p>",
            System.Net.WebUtility.HtmlDecode(html), StringComparison.Ordinal);

        // The same settings repeated: the runs in order, each named by its start.
        var repeated = HtmlReport.Matrix("label", [.. runs.Where(r => r.Server == "kestrel")]);
        Assert.Contains("http/rps/mean by run", repeated, StringComparison.Ordinal);
        foreach (var label in new[] { "11-01 09:00", "11-01 09:10" })
        {
            Assert.Contains($">{label}</text>", repeated, StringComparison.Ordinal);
        }

        Assert.DoesNotContain("class=\"answer\"", repeated, StringComparison.Ordinal);
    }
}

using Benchmarks.Host.Crank;

namespace Benchmarks.Tests.Measurements;

/// <summary>The short form of a text result that crank's table shows, so that one long line does not widen the table.</summary>
[Trait("Tier", "Fast")]
public sealed class CrankTextTests
{
    [Theory]
    [InlineData(
        "the stack: the server kept its CPU 99% busy, mostly in user mode (36% user, 13.5% kernel of the machine) (application's box, the 9 s it was loaded …)",
        "the stack: the server kept its CPU 99% busy, mostly in user mode")]
    [InlineData("the wire: the link ran at 98% of its speed (application's box, the 9 s it was loaded)", "the wire: the link ran at 98% of its speed")]
    [InlineData("window: noisy: load/rate drifted +20.6% over 8 s but not out of the noise (z = 1.1, seconds vary by 12%); repeat the run",
        "window: noisy: load/rate drifted +20.6% over 8 s but not out of the noise")]
    [InlineData("window: NOT STEADY: load/rate drifted +20.7% over 15 s (z = 3); warm up longer", "window: NOT STEADY: load/rate drifted +20.7% over 15 s")]
    [InlineData("nothing saturated: server 40% of its CPU, the load on another machine; latency- or concurrency-bound",
        "nothing saturated: server 40% of its CPU, the load on another machine")]
    [InlineData("kernel", "kernel")]
    public void A_brief_is_the_first_clause_without_its_figures(string line, string brief)
    {
        Assert.Equal(brief, CrankText.Brief(line));
    }

    [Fact]
    public void A_long_clause_is_cut_at_the_briefs_length()
    {
        var brief = CrankText.Brief(new string('x', 200));
        Assert.Equal(CrankText.BriefLength, brief.Length);
        Assert.EndsWith("…", brief, StringComparison.Ordinal);
    }
}

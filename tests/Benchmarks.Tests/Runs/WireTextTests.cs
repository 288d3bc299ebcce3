using Benchmarks.Host.Documents;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// The run's <c>wire:</c> line: no speed on loopback, the link's capacity with its source where
/// it has one, and an unknown speed said as such; the verdict names the wire from the same
/// figures.
/// </summary>
public sealed class WireTextTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_wire_line_says_which_link_what_it_carries_and_where_that_figure_came_from()
    {
        var run = SampleRuns.Pinned(("benchmarks/cpu/mean", 30.0), ("net/rx", 12.2), ("net/tx", 195.2));
        Assert.Null(WireText.Describe(run));

        run.Environment.Network = new RunNetwork { Interface = "lo", Loopback = true };
        Assert.Equal("wire: none: the traffic stayed on loopback (lo), so no link could be the limit", WireText.Describe(run));

        // Loopback shaped by a qdisc to rehearse a slow link: its rate is the capacity.
        run.Environment.Network = new RunNetwork { Interface = "lo", Loopback = true, LinkSpeed = 200, LinkSpeedSource = "qdisc" };
        Assert.Equal("wire: lo at 200 Mbit/s (its qdisc's rate): rx 12.2, tx 195.2 Mbit/s", WireText.Describe(run));

        run.Environment.Network = new RunNetwork { Interface = "eth0" };
        Assert.Equal(
            "wire: eth0, whose speed is unknown (the interface reports none): rx 12.2, tx 195.2 Mbit/s, " +
            "not judged against a capacity (an agent takes --link-speed)",
            WireText.Describe(run));

        // A server box's link shaped to 200 Mbit/s: the shaped direction near its rate, and the verdict names the wire.
        run.Environment.Network = new RunNetwork { Interface = "eth0", LinkSpeed = 200, LinkSpeedSource = "qdisc" };
        run.Measurements["net/link-speed"] = 200;
        run.Measurements["net/utilization"] = 97.6;
        Assert.Equal("wire: eth0 at 200 Mbit/s (its qdisc's rate): rx 12.2, tx 195.2 Mbit/s, 97.6% of it", WireText.Describe(run));
        Assert.Equal("wire", BottleneckRule.Judge(run)[0].Kind);

        run.Environment.Network.LinkSpeed = 10_000;
        run.Environment.Network.LinkSpeedSource = "nic";
        Assert.StartsWith("wire: eth0 at 10,000 Mbit/s (the interface's speed)", WireText.Describe(run), StringComparison.Ordinal);
        run.Environment.Network.LinkSpeedSource = "given";
        Assert.StartsWith("wire: eth0 at 10,000 Mbit/s (as given)", WireText.Describe(run), StringComparison.Ordinal);
    }
}

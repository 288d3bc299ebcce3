using System.Diagnostics;
using Benchmarks.Host.Metrics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Metrics;

/// <summary>A link's speed is the lower of what it reports and what its qdisc lets through.</summary>
public sealed class LinkSpeedTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("qdisc tbf 8001: root refcnt 2 rate 200Mbit burst 32Kb lat 50ms", 200)]
    [InlineData("qdisc cake 8002: root refcnt 2 bandwidth 1500Kbit diffserv3 triple-isolate nonat nowash no-ack-filter split-gso rtt 100ms raw overhead 0",
        1.5)]
    [InlineData("qdisc netem 8003: root refcnt 2 limit 1000 delay 1ms rate 1Gbit", 1000)]
    [InlineData("qdisc tbf 8004: root refcnt 2 rate 25MBps burst 32Kb lat 50ms", 200)]
    [InlineData("qdisc netem 1: root refcnt 2 limit 1000 rate 800Mbit\nqdisc tbf 10: parent 1:1 rate 100Mbit burst 32Kb lat 50ms", 100)]
    public void A_qdisc_that_shapes_the_link_gives_its_rate_in_megabits(string shown, double expected)
    {
        Assert.Equal(expected, QdiscRate.Parse(shown)!.Value, 6);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("qdisc noqueue 0: root refcnt 2")]
    [InlineData("qdisc fq_codel 0: root refcnt 2 limit 10240p flows 1024 quantum 1514 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64")]
    [InlineData("qdisc fq 8005: root refcnt 2 limit 10000p flow_limit 100p buckets 1024 orphan_mask 1023 quantum 3028b initial_quantum 15140b " +
        "low_rate_threshold 550Kbit refill_delay 40ms")]
    [InlineData("")]
    public void A_qdisc_that_sets_no_rate_leaves_the_links_own_speed(string shown)
    {
        Assert.Null(QdiscRate.Parse(shown));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(
        "qdisc tbf 8004: root refcnt 2 rate 200Mbit burst 32750b lat 50ms \n Sent 98765 bytes 321 pkt (dropped 17, overlimits 40 requeues 0) " +
        "\n backlog 0b 0p requeues 0",
        17L)]
    // The root's count, which holds its children's: the child tbf is not added again.
    [InlineData(
        "qdisc netem 1: root refcnt 2 limit 1000 delay 1ms\n Sent 500 bytes 5 pkt (dropped 9, overlimits 0 requeues 0)\n backlog 0b 0p requeues 0\nqdisc tbf " +
        "10: parent 1:1 rate 100Mbit burst 32Kb lat 50ms\n Sent 500 bytes 5 pkt (dropped 4, overlimits 2 requeues 0)",
        9L)]
    [InlineData("qdisc noqueue 0: root refcnt 2 \n Sent 0 bytes 0 pkt (dropped 0, overlimits 0 requeues 0) \n backlog 0b 0p requeues 0", 0L)]
    [InlineData("qdisc tbf 10: parent 1:1 rate 100Mbit burst 32Kb lat 50ms\n Sent 500 bytes 5 pkt (dropped 4, overlimits 2 requeues 0)", null)]
    [InlineData("", null)]
    public void A_shaped_links_drops_are_its_root_qdiscs(string shown, long? expected)
    {
        Assert.Equal(expected, QdiscRate.ParseDrops(shown));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("200mbit", 200)]
    [InlineData("1gbit", 1000)]
    [InlineData("1500kbit", 1.5)]
    [InlineData("25MBps", 200)]
    [InlineData("10Gbit/s", 10_000)]
    [InlineData("400", 400)]
    [InlineData("2.5g", 2500)]
    public void A_link_rate_reads_as_tc_writes_it_or_as_mbit(string text, double mbps)
    {
        var capacity = LinkCapacity.Parse(text);
        Assert.Equal(mbps, capacity.Mbps, 6);
        Assert.Equal(LinkCapacity.Given, capacity.Source);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("fast")]
    [InlineData("0")]
    [InlineData("-5mbit")]
    [InlineData("200 furlongs")]
    [InlineData("")]
    public void A_link_rate_that_is_not_one_is_refused(string text)
    {
        var error = Assert.Throws<ArgumentException>(() => LinkCapacity.Parse(text));
        Assert.StartsWith($"'{text}' is not a link rate", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    [System.Runtime.Versioning.SupportedOSPlatform("linux")]
    public async Task A_veth_shaped_to_200_mbit_reads_200_not_the_10000_it_reports()
    {
        Tools.Require("tc");
        await using var network = await NetworkNamespaces.CreateAsync(1);
        var link = network.HostLinks[0];
        var metrics = new LinuxSystemMetrics();
        Assert.Equal(new LinkCapacity(10_000, LinkCapacity.Nic), metrics.ReadLinkCapacity(link));

        await TcAsync("qdisc", "add", "dev", link, "root", "tbf", "rate", "200mbit", "burst", "32kbit", "latency", "50ms");
        Assert.Equal(new LinkCapacity(200, LinkCapacity.Qdisc), metrics.ReadLinkCapacity(link));

        // Faster than the link: the link's own speed stands.
        await TcAsync("qdisc", "replace", "dev", link, "root", "tbf", "rate", "40gbit", "burst", "1mbit", "latency", "50ms");
        Assert.Equal(new LinkCapacity(10_000, LinkCapacity.Nic), metrics.ReadLinkCapacity(link));

        // The operator's word stands over both: a limit upstream that the machine cannot see.
        Assert.Equal(new LinkCapacity(50, LinkCapacity.Given), new MetricsSampler(metrics, link, capacity: LinkCapacity.Parse("50mbit")).Capacity);
    }

    private static async Task TcAsync(params string[] arguments)
    {
        var info = new ProcessStartInfo("tc") { RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        using var tc = Process.Start(info)!;
        var error = await tc.StandardError.ReadToEndAsync();
        await tc.WaitForExitAsync();
        Assert.True(tc.ExitCode == 0, $"tc {string.Join(' ', arguments)}: {error}");
    }
}

using Benchmarks.Host.Measurements;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Tests.Measurements;

/// <summary>
/// The connect family: declared once, the same members under each load's prefix, its times a
/// latency family, its times written only for connects in the window.
/// </summary>
public sealed class ConnectMeasuresTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_load_counts_and_times_its_connects_with_the_same_members_under_its_own_prefix()
    {
        foreach (var (family, prefix) in new[] { (ConnectMeasures.Http, "http"), (ConnectMeasures.WebSocket, "ws"), (ConnectMeasures.Tcp, "tcp") })
        {
            Assert.Equal(
                ["connects", "connects/rate", "connect/mean", "connect/stdev", "connect/50", "connect/75", "connect/90", "connect/99", "connect/99.9",
                 "connect/max", "connect/min"],
                family.All.Select(m => m.Name[(prefix.Length + 1)..]));
            Assert.All(family.All, m => Assert.Same(m, MeasurementCatalog.Find(m.Name)));
        }

        // Only a load that does nothing but connect has its connect rate as its headline.
        Assert.Equal(MeasurementRole.Headline, ConnectMeasures.WebSocket.Rate.Role);
        Assert.Equal(MeasurementRole.None, ConnectMeasures.Tcp.Rate.Role);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Connect_times_are_written_only_when_connects_happened_in_the_window()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(1_500_000);
        histogram.Record(2_500_000);
        var times = LatencySummary.From(histogram);

        var none = new Dictionary<string, double>();
        ConnectMeasures.Tcp.Add(none, 0, null, times);
        Assert.Equal(["tcp/connects"], none.Keys);

        var some = new Dictionary<string, double>();
        ConnectMeasures.Tcp.Add(some, 2, 40, times);
        Assert.Equal(11, some.Count);
        Assert.Equal(40, some["tcp/connects/rate"]);
        Assert.InRange(some["tcp/connect/min"], 1.49, 1.51);
        Assert.InRange(some["tcp/connect/max"], 2.49, 2.51);
    }
}

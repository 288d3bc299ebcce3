using Benchmarks.Host.Metrics;
using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Tests.Metrics;

/// <summary>
/// Values of System.Diagnostics.Metrics instruments as MetricsEventSource publishes them (its
/// events' fields, numbers as invariant strings): a series per set of tags, summed per instrument,
/// each the mean of what it published since the readings were last taken; another session's
/// events, undeclared instruments and histograms ignored.
/// </summary>
public sealed class MeterReadingsTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Series_of_an_instrument_add_up_and_what_is_not_this_sessions_is_ignored()
    {
        var readings = new MeterReadings();
        var provider = readings.ProviderFor(["Microsoft.AspNetCore.Server.Kestrel"], 0.25);
        var session = provider.Arguments!["SessionId"];
        Assert.Equal(("Microsoft.AspNetCore.Server.Kestrel", "0.25", 2L),
            (provider.Arguments["Metrics"], provider.Arguments["RefreshInterval"], provider.Keywords));

        Func<string, object?> Event(string meter, string instrument, string tags, params (string Name, string Value)[] values) => name => name switch
        {
            "sessionId" => session,
            "meterName" => meter,
            "instrumentName" => instrument,
            "tags" => tags,
            _ => values.FirstOrDefault(v => v.Name == name).Value,
        };

        // Two endpoints' open connections: 60 and 4.
        Assert.True(readings.Read("UpDownCounterRateValuePublished",
            Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5000", ("rate", "0"),
                ("value", "60"))));
        Assert.True(readings.Read("UpDownCounterRateValuePublished",
            Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5001", ("rate", "0"),
                ("value", "4"))));

        // The same series again within one reading: the mean of its instants (4 and 8).
        Assert.True(readings.Read("UpDownCounterRateValuePublished",
            Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5001", ("rate", "0"),
                ("value", "8"))));

        // Not ours: another session's value, and an instrument the catalog does not declare.
        Assert.False(readings.Read("UpDownCounterRateValuePublished",
            name => name == "sessionId" ? "another" : Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "", ("value", "1000"))(name)));
        Assert.False(readings.Read("UpDownCounterRateValuePublished",
            Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.upgraded_connections", "", ("value", "3"))));

        var gauges = new Dictionary<string, double>();
        readings.AddTo(gauges);
        Assert.Equal(66, gauges["kestrel-meter/active-connections"]);
        Assert.Single(gauges);

        // The next reading starts afresh: a series that published again is its new instants' mean, one that did not keeps its last value.
        Assert.True(readings.Read("UpDownCounterRateValuePublished",
            Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5000", ("rate", "0"),
                ("value", "40"))));
        Assert.True(readings.Read("UpDownCounterRateValuePublished",
            Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5000", ("rate", "0"),
                ("value", "30"))));
        readings.AddTo(gauges);
        Assert.Equal(35 + 8, gauges["kestrel-meter/active-connections"]);

        // A histogram's values are not read.
        Assert.False(readings.Read("HistogramValuePublished",
            Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.connection.duration", "", ("unit", "s"), ("quantiles", "0.5=1;0.95=2;0.99=3"))));
    }
}

using Benchmarks.Host.Metrics;
using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Tests.Metrics;

/// <summary>
/// Values of System.Diagnostics.Metrics instruments as MetricsEventSource publishes them (its
/// events' fields, numbers as invariant strings): a series per set of tags, summed per instrument;
/// a histogram's quantiles kept in milliseconds, the largest over its series; another session's
/// events and undeclared instruments ignored.
/// </summary>
public sealed class MeterReadingsTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Series_of_an_instrument_add_up_and_a_duration_histogram_gives_its_quantiles_in_milliseconds()
    {
        var readings = new MeterReadings();
        var provider = readings.ProviderFor(["Microsoft.AspNetCore.Server.Kestrel", "Microsoft.AspNetCore.Hosting"], 1);
        var session = provider.Arguments!["SessionId"];
        Assert.Equal(("Microsoft.AspNetCore.Server.Kestrel,Microsoft.AspNetCore.Hosting", "1", 2L), (provider.Arguments["Metrics"], provider.Arguments["RefreshInterval"], provider.Keywords));

        Func<string, object?> Event(string meter, string instrument, string tags, params (string Name, string Value)[] values) => name => name switch
        {
            "sessionId" => session,
            "meterName" => meter,
            "instrumentName" => instrument,
            "tags" => tags,
            _ => values.FirstOrDefault(v => v.Name == name).Value,
        };

        // Two endpoints' open connections: 60 and 4.
        Assert.True(readings.Read("UpDownCounterRateValuePublished", Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5000", ("rate", "0"), ("value", "60"))));
        Assert.True(readings.Read("UpDownCounterRateValuePublished", Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5001", ("rate", "0"), ("value", "4"))));

        // The same series again replaces its value.
        Assert.True(readings.Read("UpDownCounterRateValuePublished", Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "server.address=127.0.0.1,server.port=5001", ("rate", "0"), ("value", "8"))));

        // Request durations in seconds, two routes: the larger quantile of the two is kept.
        Assert.True(readings.Read("HistogramValuePublished", Event("Microsoft.AspNetCore.Hosting", "http.server.request.duration", "http.route=/plaintext", ("unit", "s"), ("quantiles", "0.5=0.00012;0.95=0.0009;0.99=0.0021"))));
        Assert.True(readings.Read("HistogramValuePublished", Event("Microsoft.AspNetCore.Hosting", "http.server.request.duration", "http.route=/json", ("unit", "s"), ("quantiles", "0.5=0.0002;0.95=0.0004;0.99=0.0011"))));

        // Not ours: another session's value, and an instrument the catalog does not declare.
        Assert.False(readings.Read("UpDownCounterRateValuePublished", name => name == "sessionId" ? "another" : Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.active_connections", "", ("value", "1000"))(name)));
        Assert.False(readings.Read("UpDownCounterRateValuePublished", Event("Microsoft.AspNetCore.Server.Kestrel", "kestrel.upgraded_connections", "", ("value", "3"))));

        var gauges = new Dictionary<string, double>();
        readings.AddTo(gauges);
        Assert.Equal(68, gauges["kestrel-meter/active-connections"]);
        Assert.Equal(0.2, gauges["aspnet-meter/request-duration/50"], 9);
        Assert.Equal(0.9, gauges["aspnet-meter/request-duration/95"], 9);
        Assert.Equal(2.1, gauges["aspnet-meter/request-duration/99"], 9);
        Assert.Equal(4, gauges.Count);
    }
}

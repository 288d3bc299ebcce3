using Benchmarks.Host.LoadJobs;

namespace Benchmarks.Tests.Cli;

/// <summary>wrk reports recorded from real runs on this project's machines.</summary>
public sealed class WrkReportParserTests
{
    private static HttpToolReport Parse(string fixture) =>
        WrkReportParser.Parse(File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "Fixtures", fixture)))!;

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_clean_report_maps_to_the_built_in_generators_measurement_names()
    {
        var m = Parse("wrk-plaintext.txt").ToMeasurements();
        Assert.Equal(49152.43, m["http/rps/mean"], 6);
        Assert.Equal(98593, m["http/requests"]);
        Assert.Equal(1.42, m["http/latency/mean"], 6);
        Assert.Equal(3.00, m["http/latency/stdev"], 6);
        Assert.Equal(36.72, m["http/latency/max"], 6);
        Assert.Equal(0.91, m["http/latency/50"], 6);
        Assert.Equal(1.23, m["http/latency/75"], 6);
        Assert.Equal(1.68, m["http/latency/90"], 6);
        Assert.Equal(19.70, m["http/latency/99"], 6);
        Assert.Equal(0, m["http/requests/badresponses"]);
        Assert.Equal(0, m["http/requests/errors"]);
        Assert.Equal(6.19 * 1024 * 1024 / 1_000_000, m["http/throughput"], 6);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Microseconds_and_non_2xx_responses_are_read()
    {
        var report = Parse("wrk-404.txt");
        Assert.Equal(72196, report.BadResponses);
        Assert.Equal(0.12842, report.LatencyMean, 6);
        Assert.Equal(0.08, report.Percentiles["50"], 6);
        Assert.Equal(0.96, report.Percentiles["99"], 6);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Socket_errors_are_summed()
    {
        var report = Parse("wrk-socket-errors.txt");
        Assert.Equal(59630, report.SocketErrors);
        Assert.Equal(16, report.BadResponses);
        Assert.Equal(1.54 * 1024 / 1_000_000, report.ThroughputMegabytesPerSecond, 9);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_percentile_below_a_lower_one_is_left_out_not_stored_as_zero()
    {
        var lines = File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "Fixtures", "wrk-plaintext.txt"))
            .Select(l => l.Trim().StartsWith("99%", StringComparison.Ordinal) ? "     99%    0.00us" : l);
        var report = WrkReportParser.Parse(lines)!;
        Assert.Equal(["99"], report.Inconsistent);
        var m = report.ToMeasurements();
        Assert.False(m.ContainsKey("http/latency/99"));
        Assert.Equal(1.68, m["http/latency/90"], 6);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Output_without_a_report_is_null()
    {
        Assert.Null(WrkReportParser.Parse(["unable to connect to 127.0.0.1:1 Connection refused"]));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("850.00us", 0.85)]
    [InlineData("1.23ms", 1.23)]
    [InlineData("2.00s", 2000)]
    [InlineData("1.50m", 90000)]
    public void Wrk_durations_convert_to_milliseconds(string text, double expected)
    {
        Assert.Equal(expected, WrkReportParser.Milliseconds(text), 9);
    }
}

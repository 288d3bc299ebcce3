using Benchmarks.Host.LoadJobs;
using Benchmarks.Load.Statistics;
using HdrHistogram;

namespace Benchmarks.Tests.Load;

/// <summary>
/// The latency distribution a load writes (<c>--latency-distribution</c>) is HdrHistogram's own
/// percentile-distribution text of the same counts: the load's histogram has HdrHistogram's
/// buckets, so copying bucket by bucket gives exactly what HdrHistogram prints having recorded
/// every value itself.
/// </summary>
public sealed class LatencyDistributionTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void The_distribution_is_what_hdrhistogram_prints_for_the_same_values()
    {
        var ours = new LatencyHistogram();
        var theirs = new LongHistogram(1, LatencyHistogram.HighestTrackableValue, 3);
        var random = new Random(7);
        for (var i = 0; i < 50_000; i++)
        {
            // Latencies in ns from 0 to ~2 s, log-uniform, with a few values in the first linear buckets.
            var value = i % 1000 == 0 ? i % 2048 : (long)Math.Exp(random.NextDouble() * Math.Log(2e9));
            ours.Record(value);
            theirs.RecordValue(value);
        }

        using var expected = new StringWriter();
        theirs.OutputPercentileDistribution(expected, percentileTicksPerHalfDistance: 5, outputValueUnitScalingRatio: 1_000_000.0);
        using var actual = new StringWriter();
        LatencyDistribution.Write(actual, ours);

        Assert.Equal(expected.ToString(), actual.ToString());
        Assert.Matches(@"#\[Max +=  +[0-9.]+, Total count +=  +50000\]", actual.ToString());

        // Its percentiles are the summary's, to the bucket.
        var summary = LatencySummary.From(ours);
        Assert.Equal(theirs.GetValueAtPercentile(99) / 1e6, summary.P99, 0.001 * summary.P99);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void An_empty_window_writes_an_empty_distribution()
    {
        using var text = new StringWriter();
        LatencyDistribution.Write(text, new LatencyHistogram());
        Assert.Matches(@"Total count +=  +0\]", text.ToString());
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_encoded_histogram_is_hdrhistograms_own_and_decodes_to_the_same_buckets()
    {
        var ours = new LatencyHistogram();
        var random = new Random(11);
        for (var i = 0; i < 20_000; i++)
        {
            ours.Record((long)Math.Exp(random.NextDouble() * Math.Log(5e9)));
        }

        var text = LatencyDistribution.Encode(ours);

        // HdrHistogram reads it as its own compressed encoding: the same count and percentiles.
        var theirs = HistogramEncoding.DecodeFromCompressedByteBuffer(HdrHistogram.Utilities.ByteBuffer.Allocate(Convert.FromBase64String(text)),
            LatencyHistogram.HighestTrackableValue);
        Assert.Equal(20_000, theirs.TotalCount);
        Assert.Equal(LatencySummary.From(ours).P99 * 1e6, theirs.GetValueAtPercentile(99), 0.001 * theirs.GetValueAtPercentile(99));

        // Decoded, every bucket holds what it held.
        Assert.Equal(ours.Buckets().ToList(), LatencyDistribution.Decode(text).Buckets().ToList());
        Assert.Empty(LatencyDistribution.Decode(LatencyDistribution.Encode(new LatencyHistogram())).Buckets());
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("not base64 at all!")]
    [InlineData("aGVsbG8gd29ybGQ=")]
    [InlineData("HIST")]
    [InlineData("")]
    public void Text_that_is_not_an_encoded_histogram_is_a_format_error(string text)
    {
        var error = Assert.Throws<FormatException>(() => LatencyDistribution.Decode(text));
        Assert.NotEmpty(error.Message);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_truncated_encoding_is_a_format_error()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(1_000_000, 10);
        histogram.Record(9_000_000, 3);
        var bytes = Convert.FromBase64String(LatencyDistribution.Encode(histogram));
        Assert.Throws<FormatException>(() => LatencyDistribution.Decode(Convert.ToBase64String(bytes[..(bytes.Length / 2)])));
        Assert.Throws<FormatException>(() => LatencyDistribution.Decode(new string('A', LatencyDistribution.MaxEncodedLength + 4)));
    }
}

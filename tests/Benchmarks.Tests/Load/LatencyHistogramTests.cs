using Benchmarks.Load.Statistics;

namespace Benchmarks.Tests.Load;

public sealed class LatencyHistogramTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(42)]
    public void Percentiles_match_a_sorted_reference_to_three_significant_digits(int seed)
    {
        var random = new Random(seed);
        var histogram = new LatencyHistogram();
        var values = new long[50_000];
        for (var i = 0; i < values.Length; i++)
        {
            // Log-uniform from 1 us to 10 s in nanoseconds: every bucket magnitude gets exercised.
            values[i] = (long)Math.Pow(10, 3 + (random.NextDouble() * 7));
            histogram.Record(values[i]);
        }

        Array.Sort(values);
        foreach (var percentile in new[] { 0.0, 1, 25, 50, 75, 90, 99, 99.9, 99.99, 100 })
        {
            var rank = Math.Max(1, (long)Math.Ceiling(percentile / 100 * values.Length));
            var expected = values[rank - 1];
            var actual = histogram.ValueAtPercentile(percentile);
            Assert.InRange(actual, expected, expected + (expected / 1024) + 1);
        }

        Assert.Equal(values[^1], histogram.Max);
        Assert.Equal(values[0], histogram.Min);
        Assert.Equal(values.Average(v => (double)v), histogram.Mean, 6);
        Assert.Equal(values.Length, histogram.TotalCount);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void An_hour_of_latency_keeps_three_significant_digits_in_fixed_memory()
    {
        // An open-model run whose server stalls can time requests for as long as the run lasts.
        var histogram = new LatencyHistogram();
        var hour = (long)TimeSpan.FromHours(1).TotalNanoseconds;
        Assert.True(LatencyHistogram.HighestTrackableValue >= hour);
        long[] values = [hour, hour - 123_456_789, (59 * 60_000_000_000L) + 1, 1_234_567_890_123];
        var reported = new long[values.Length];
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < values.Length; i++)
        {
            histogram.Record(values[i], 1_000_000);
            reported[i] = histogram.ValueAtPercentile(100);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        for (var i = 0; i < values.Length; i++)
        {
            var max = values.Take(i + 1).Max();
            Assert.InRange(reported[i], max, max + (max / 1024) + 1);
        }

        Assert.InRange(histogram.ValueAtPercentile(25), 1_234_567_890_123, 1_234_567_890_123 + (1_234_567_890_123 / 1024));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Small_values_are_exact()
    {
        var histogram = new LatencyHistogram();
        for (var v = 0; v < 2048; v++)
        {
            histogram.Record(v);
        }

        Assert.Equal(1023, histogram.ValueAtPercentile(50));
        Assert.Equal(2047, histogram.ValueAtPercentile(100));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_bucket_bound_round_trips()
    {
        for (var index = 0; index < 33_000; index += 7)
        {
            var low = LatencyHistogram.LowestEquivalentValue(index);
            var high = LatencyHistogram.HighestEquivalentValue(index);
            Assert.Equal(index, LatencyHistogram.IndexOf(low));
            Assert.Equal(index, LatencyHistogram.IndexOf(high));
            Assert.True(high - low <= Math.Max(0, low / 1024), $"bucket {index} [{low},{high}] is wider than 1/1024");
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Merged_histograms_equal_one_histogram_of_all_values()
    {
        var random = new Random(3);
        var all = new LatencyHistogram();
        var parts = new[] { new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram() };
        for (var i = 0; i < 30_000; i++)
        {
            var value = random.NextInt64(1, 5_000_000_000);
            all.Record(value);
            parts[i % 3].Record(value);
        }

        var merged = new LatencyHistogram();
        foreach (var part in parts)
        {
            merged.Add(part);
        }

        foreach (var percentile in new[] { 50.0, 90, 99, 99.9 })
        {
            Assert.Equal(all.ValueAtPercentile(percentile), merged.ValueAtPercentile(percentile));
        }

        Assert.Equal(all.Max, merged.Max);
        Assert.Equal(all.Min, merged.Min);
        Assert.Equal(all.Mean, merged.Mean, 9);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Concurrent_recording_loses_no_count()
    {
        var histogram = new LatencyHistogram();
        Parallel.For(0, 8, worker =>
        {
            for (var i = 0; i < 100_000; i++)
            {
                histogram.Record(1000 + worker);
            }
        });

        Assert.Equal(800_000, histogram.TotalCount);
        Assert.Equal(1007, histogram.Max);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void An_empty_histogram_reports_zeros()
    {
        var histogram = new LatencyHistogram();
        Assert.Equal(0, histogram.ValueAtPercentile(99));
        Assert.Equal(0, histogram.Mean);
        Assert.Equal(0, histogram.Max);
    }
}

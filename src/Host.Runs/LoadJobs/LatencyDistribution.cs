using Benchmarks.Load.Statistics;
using HdrHistogram;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// A load's latency distribution in HdrHistogram's percentile-distribution text (<c>.hgrm</c>:
/// value in ms, percentile, total count, 1/(1-percentile)), the format wrk2 prints and
/// HdrHistogram's plotter reads. The load records into its own lock-free histogram, whose buckets
/// are HdrHistogram's (lowest discernible value 1 ns, 3 significant digits); at the end each
/// bucket is copied into an HdrHistogram of that layout, which writes the text, so the file is
/// the library's own rendering of the same counts.
/// </summary>
internal static class LatencyDistribution
{
    private const double NanosecondsPerMillisecond = 1_000_000.0;

    public static void Write(TextWriter writer, LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(histogram);
        var hdr = new LongHistogram(1, LatencyHistogram.HighestTrackableValue, 3);
        foreach (var (value, count) in histogram.Buckets())
        {
            hdr.RecordValueWithCount(value, count);
        }

        hdr.OutputPercentileDistribution(writer, percentileTicksPerHalfDistance: 5, outputValueUnitScalingRatio: NanosecondsPerMillisecond);
    }

    /// <summary>Writes the distribution to a file (replaced whole: a temporary file, then a rename).</summary>
    public static async Task WriteAsync(string path, LatencyHistogram histogram)
    {
        var full = Path.GetFullPath(path);
        var temporary = full + ".tmp";
        await using (var file = new StreamWriter(temporary))
        {
            Write(file, histogram);
        }

        File.Move(temporary, full, overwrite: true);
    }
}

using Benchmarks.Load.Statistics;
using HdrHistogram;
using HdrHistogram.Utilities;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// A load's latency distribution in HdrHistogram's percentile-distribution text (<c>.hgrm</c>:
/// value in ms, percentile, total count, 1/(1-percentile)), the format wrk2 prints and
/// HdrHistogram's plotter reads. The load records into its own lock-free histogram, whose buckets
/// are HdrHistogram's (lowest discernible value 1 ns, 3 significant digits); at the end each
/// bucket is copied into an HdrHistogram of that layout, which writes the text, so the file is
/// the library's own rendering of the same counts. The same copy travels between machines in
/// HdrHistogram's compressed encoding (base64, as its log files hold it): a load in a crank job prints
/// it, and <c>results import</c> merges the instances' copies.
/// </summary>
internal static class LatencyDistribution
{
    private const double NanosecondsPerMillisecond = 1_000_000.0;

    /// <summary>The most text <see cref="Decode"/> reads: 16 MB, far beyond a full histogram's encoding.</summary>
    public const int MaxEncodedLength = 16 << 20;

    public static void Write(TextWriter writer, LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(histogram);
        Copy(histogram).OutputPercentileDistribution(writer, percentileTicksPerHalfDistance: 5, outputValueUnitScalingRatio: NanosecondsPerMillisecond);
    }

    /// <summary>The histogram's counts in HdrHistogram's compressed encoding, base64.</summary>
    public static string Encode(LatencyHistogram histogram)
    {
        ArgumentNullException.ThrowIfNull(histogram);
        var hdr = Copy(histogram);
        var buffer = ByteBuffer.Allocate(hdr.GetNeededByteBufferCapacity());
        var length = hdr.EncodeIntoCompressedByteBuffer(buffer);
        var bytes = new byte[length];
        buffer.Position = 0;
        for (var i = 0; i < length; i++)
        {
            bytes[i] = buffer.Get();
        }

        return Convert.ToBase64String(bytes);
    }

    /// <summary>
    /// A histogram from <see cref="Encode"/>'s text (or any HdrHistogram's compressed encoding of
    /// nanoseconds): each count lands in this histogram's bucket of the same value. Its mean and extremes
    /// are then the buckets', within their 0.1% width. Throws <see cref="FormatException"/> for text that
    /// is not such an encoding.
    /// </summary>
    public static LatencyHistogram Decode(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (text.Length > MaxEncodedLength)
        {
            throw new FormatException($"a latency histogram of {text.Length:n0} characters (at most {MaxEncodedLength:n0} are read)");
        }

        HistogramBase hdr;
        try
        {
            hdr = HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(Convert.FromBase64String(text)), LatencyHistogram.HighestTrackableValue);
        }
        catch (Exception ex) when (ex is FormatException or ArgumentException or InvalidOperationException or IOException or IndexOutOfRangeException
            or OverflowException or NotSupportedException)
        {
            throw new FormatException($"not a latency histogram in HdrHistogram's compressed encoding ({ex.Message})", ex);
        }

        var histogram = new LatencyHistogram();
        foreach (var bucket in hdr.RecordedValues())
        {
            histogram.Record(bucket.ValueIteratedTo, bucket.CountAtValueIteratedTo);
        }

        return histogram;
    }

    /// <summary>Each bucket copied into an HdrHistogram of the same layout (lowest discernible value 1 ns, 3 significant digits).</summary>
    private static LongHistogram Copy(LatencyHistogram histogram)
    {
        var hdr = new LongHistogram(1, LatencyHistogram.HighestTrackableValue, 3);
        foreach (var (value, count) in histogram.Buckets())
        {
            hdr.RecordValueWithCount(value, count);
        }

        return hdr;
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

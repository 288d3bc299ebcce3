using System.Runtime.CompilerServices;
using System.Numerics;

namespace Benchmarks.Load.Statistics;

/// <summary>
/// A log-linear histogram of non-negative integer values (nanoseconds here) that keeps three
/// significant decimal digits: every recorded value lands in a bucket whose width is at most
/// 1/1024 of its lower bound. Recording is lock-free and allocation-free, so several load
/// connections can share one instance.
/// </summary>
public sealed class LatencyHistogram
{
    private const int SubBucketBits = 11;                 // 2048 sub-buckets: 3 significant digits
    private const int SubBucketCount = 1 << SubBucketBits;
    private const int SubBucketHalfCount = SubBucketCount / 2;
    private const int MaxValueBits = 42;                  // 2^42 ns ≈ 73 minutes; larger values are clamped

    private readonly long[] _counts = new long[CountsLength];
    private long _totalCount;
    private long _sum;
    private long _max;
    private long _min = long.MaxValue;

    /// <summary>Largest value that can be recorded without clamping.</summary>
    public static long HighestTrackableValue => (1L << MaxValueBits) - 1;

    private static int CountsLength => SubBucketCount + ((MaxValueBits - SubBucketBits) * SubBucketHalfCount);

    public long TotalCount => Volatile.Read(ref _totalCount);

    public long Max => TotalCount == 0 ? 0 : Volatile.Read(ref _max);

    public long Min => TotalCount == 0 ? 0 : Volatile.Read(ref _min);

    public double Mean => TotalCount == 0 ? 0 : (double)Volatile.Read(ref _sum) / TotalCount;

    public void Record(long value) => Record(value, 1);

    /// <summary>Records <paramref name="count"/> occurrences of one value (responses that arrived together).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Record(long value, long count)
    {
        if (count <= 0)
        {
            return;
        }

        value = Math.Clamp(value, 0, HighestTrackableValue);
        Interlocked.Add(ref _counts[IndexOf(value)], count);
        Interlocked.Add(ref _totalCount, count);
        Interlocked.Add(ref _sum, value * count);
        UpdateMax(value);
        UpdateMin(value);
    }

    /// <summary>Adds every count of <paramref name="other"/> into this histogram.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        for (var i = 0; i < _counts.Length; i++)
        {
            var count = Volatile.Read(ref other._counts[i]);
            if (count != 0)
            {
                Interlocked.Add(ref _counts[i], count);
            }
        }

        if (other.TotalCount == 0)
        {
            return;
        }

        Interlocked.Add(ref _totalCount, other.TotalCount);
        Interlocked.Add(ref _sum, Volatile.Read(ref other._sum));
        UpdateMax(other.Max);
        UpdateMin(other.Min);
    }

    public void Reset()
    {
        Array.Clear(_counts);
        _totalCount = 0;
        _sum = 0;
        _max = 0;
        _min = long.MaxValue;
    }

    /// <summary>
    /// The value at a percentile by nearest rank: the smallest recorded value such that at
    /// least <paramref name="percentile"/>% of values are at or below it, reported as the
    /// upper bound of its bucket (never above the recorded maximum).
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        var total = TotalCount;
        if (total == 0)
        {
            return 0;
        }

        var rank = Math.Max(1, (long)Math.Ceiling(percentile / 100.0 * total));
        long cumulative = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            cumulative += Volatile.Read(ref _counts[i]);
            if (cumulative >= rank)
            {
                return Math.Min(HighestEquivalentValue(i), Max);
            }
        }

        return Max;
    }

    /// <summary>Standard deviation of the recorded values, from bucket midpoints.</summary>
    public double StandardDeviation()
    {
        var total = TotalCount;
        if (total == 0)
        {
            return 0;
        }

        var mean = Mean;
        double sumOfSquares = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            var count = Volatile.Read(ref _counts[i]);
            if (count != 0)
            {
                var mid = (LowestEquivalentValue(i) + HighestEquivalentValue(i)) / 2.0;
                sumOfSquares += count * (mid - mean) * (mid - mean);
            }
        }

        return Math.Sqrt(sumOfSquares / total);
    }

    /// <summary>
    /// Every bucket that holds a count: the lowest value it stands for and its count, lowest
    /// first. The layout is HdrHistogram's with a lowest discernible value of 1 and 3 significant
    /// digits (2,048 sub-buckets), so a value recorded there lands in the same bucket.
    /// </summary>
    public IEnumerable<(long Value, long Count)> Buckets()
    {
        for (var i = 0; i < _counts.Length; i++)
        {
            var count = Volatile.Read(ref _counts[i]);
            if (count != 0)
            {
                yield return (LowestEquivalentValue(i), count);
            }
        }
    }

    internal static int IndexOf(long value)
    {
        if (value < SubBucketCount)
        {
            return (int)value;
        }

        var magnitude = 63 - BitOperations.LeadingZeroCount((ulong)value);   // >= SubBucketBits
        var bucket = magnitude - SubBucketBits + 1;                            // >= 1
        var subBucket = (int)(value >> bucket);                                // [1024, 2047]
        return SubBucketCount + ((bucket - 1) * SubBucketHalfCount) + (subBucket - SubBucketHalfCount);
    }

    internal static long LowestEquivalentValue(int index)
    {
        if (index < SubBucketCount)
        {
            return index;
        }

        var offset = index - SubBucketCount;
        var bucket = (offset / SubBucketHalfCount) + 1;
        var subBucket = (offset % SubBucketHalfCount) + SubBucketHalfCount;
        return (long)subBucket << bucket;
    }

    internal static long HighestEquivalentValue(int index)
    {
        if (index < SubBucketCount)
        {
            return index;
        }

        var bucket = ((index - SubBucketCount) / SubBucketHalfCount) + 1;
        return LowestEquivalentValue(index) + (1L << bucket) - 1;
    }

    private void UpdateMax(long value)
    {
        var current = Volatile.Read(ref _max);
        while (value > current)
        {
            var seen = Interlocked.CompareExchange(ref _max, value, current);
            if (seen == current)
            {
                return;
            }

            current = seen;
        }
    }

    private void UpdateMin(long value)
    {
        var current = Volatile.Read(ref _min);
        while (value < current)
        {
            var seen = Interlocked.CompareExchange(ref _min, value, current);
            if (seen == current)
            {
                return;
            }

            current = seen;
        }
    }
}

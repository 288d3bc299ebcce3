namespace Benchmarks.Host.Reports;

/// <summary>
/// The Hodges–Lehmann estimate of the shift between two groups (the median of every
/// candidate − baseline difference) and its distribution-free confidence interval, the one
/// that inverts the Mann–Whitney test: order statistics of the differences at the test's
/// critical value (exact below 60 values in all, the normal approximation beyond). The n·m
/// differences are never materialized: each order statistic is selected by bisection over the
/// ordered bit patterns of doubles (64 steps at most), each step counting the differences at or
/// below a value with two pointers over the sorted groups — O((n + m) log(n + m)) time, O(n + m)
/// memory, and exact (the same value sorting all differences would give).
/// </summary>
internal static class HodgesLehmann
{
    private const int ExactLimit = 60;

    /// <summary>The shift and its (1 − <paramref name="alpha"/>) interval; the bounds are NaN when the groups are too small for that confidence.</summary>
    public static (double Shift, double Low, double High) Estimate(IReadOnlyList<double> baseline, IReadOnlyList<double> candidate, double alpha)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var after = candidate.Where(double.IsFinite).Order().ToArray();
        var before = baseline.Where(double.IsFinite).Order().ToArray();
        var count = (long)after.Length * before.Length;
        if (count == 0)
        {
            return (double.NaN, double.NaN, double.NaN);
        }

        var shift = count % 2 == 1
            ? Select(after, before, (count + 1) / 2)
            : (Select(after, before, count / 2) + Select(after, before, (count / 2) + 1)) / 2;
        var k = CriticalCount(before.Length, after.Length, alpha);
        return k < 1 ? (shift, double.NaN, double.NaN) : (shift, Select(after, before, k), Select(after, before, count - k + 1));
    }

    /// <summary>The <paramref name="rank"/>-th smallest (1-based) of every <c>after[i] − before[j]</c>; both arrays sorted.</summary>
    internal static double Select(double[] after, double[] before, long rank)
    {
        // Invariant: fewer than rank differences are ≤ the value at low, at least rank are ≤ the value at high.
        var low = Ordered(after[0] - before[^1]) - 1;
        var high = Ordered(after[^1] - before[0]);
        while ((ulong)high - (ulong)low > 1)
        {
            var middle = low + (long)(((ulong)high - (ulong)low) / 2);
            if (CountAtMost(after, before, FromOrdered(middle)) >= rank)
            {
                high = middle;
            }
            else
            {
                low = middle;
            }
        }

        return FromOrdered(high);
    }

    /// <summary>How many <c>after[i] − before[j]</c> are ≤ <paramref name="value"/>: for each i the first j that qualifies only moves right.</summary>
    private static long CountAtMost(double[] after, double[] before, double value)
    {
        long count = 0;
        var j = 0;
        foreach (var a in after)
        {
            while (j < before.Length && a - before[j] > value)
            {
                j++;
            }

            count += before.Length - j;
        }

        return count;
    }

    /// <summary>A double's bits as a long that orders as the doubles do (−0 and +0 alike).</summary>
    private static long Ordered(double value)
    {
        var bits = BitConverter.DoubleToInt64Bits(value);
        return bits >= 0 ? bits : long.MinValue - bits;
    }

    private static double FromOrdered(long ordered) => BitConverter.Int64BitsToDouble(ordered >= 0 ? ordered : long.MinValue - ordered);

    /// <summary>The smallest two-sided p-value the test can give with these group sizes (all of one group above all of the other).</summary>
    public static double SmallestPValue(int first, int second) => Math.Min(1, 2 / Binomial(first + second, first));

    /// <summary>The fewest runs a side (equal sides) with which the test can reach <paramref name="alpha"/>.</summary>
    public static int RunsNeeded(double alpha)
    {
        var n = 1;
        while (SmallestPValue(n, n) >= alpha)
        {
            n++;
        }

        return n;
    }

    /// <summary>The largest k with P(U ≤ k − 1) ≤ α/2 under no shift; 0 when even the extreme is likelier.</summary>
    private static long CriticalCount(int m, int n, double alpha)
    {
        if (m + n > ExactLimit)
        {
            var z = InverseUpperTail(alpha / 2);
            return (long)Math.Max(0, Math.Floor(((double)m * n / 2.0) - (z * Math.Sqrt((double)m * n * (m + n + 1) / 12.0))));
        }

        // counts[u]: arrangements with Mann–Whitney U = u (no ties), by the recurrence over the largest value.
        var counts = UCounts(m, n);
        var total = counts.Sum();
        double cumulative = 0;
        var k = 0;
        for (var u = 0; u < counts.Length; u++)
        {
            cumulative += counts[u];
            if (cumulative / total > alpha / 2)
            {
                break;
            }

            k = u + 1;
        }

        return k;
    }

    private static double[] UCounts(int m, int n)
    {
        // f[i, j][u]: arrangements of i and j values with U = u; f(i, j) = f(i−1, j) shifted by j + f(i, j−1).
        var table = new double[m + 1, n + 1][];
        for (var i = 0; i <= m; i++)
        {
            for (var j = 0; j <= n; j++)
            {
                var row = new double[(i * j) + 1];
                if (i == 0 || j == 0)
                {
                    row[0] = 1;
                }
                else
                {
                    var a = table[i - 1, j];
                    var b = table[i, j - 1];
                    for (var u = 0; u < a.Length; u++)
                    {
                        row[u + j] += a[u];
                    }

                    for (var u = 0; u < b.Length; u++)
                    {
                        row[u] += b[u];
                    }
                }

                table[i, j] = row;
            }
        }

        return table[m, n];
    }

    private static double Binomial(int n, int k)
    {
        double result = 1;
        for (var i = 1; i <= k; i++)
        {
            result = result * (n - k + i) / i;
        }

        return result;
    }

    /// <summary>z with P(Z &gt; z) = p, by bisection.</summary>
    private static double InverseUpperTail(double p)
    {
        double low = 0, high = 10;
        for (var i = 0; i < 100; i++)
        {
            var mid = (low + high) / 2;
            if (MannWhitney.UpperTail(mid) > p)
            {
                low = mid;
            }
            else
            {
                high = mid;
            }
        }

        return (low + high) / 2;
    }
}

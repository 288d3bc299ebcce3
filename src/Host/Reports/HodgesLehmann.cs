namespace Benchmarks.Host.Reports;

/// <summary>
/// The Hodges–Lehmann estimate of the shift between two groups (the median of every
/// candidate − baseline difference) and its distribution-free confidence interval, the one
/// that inverts the Mann–Whitney test: order statistics of the differences at the test's
/// critical value (exact below 60 values in all, the normal approximation beyond).
/// </summary>
internal static class HodgesLehmann
{
    private const int ExactLimit = 60;

    /// <summary>The shift and its (1 − <paramref name="alpha"/>) interval; the bounds are NaN when the groups are too small for that confidence.</summary>
    public static (double Shift, double Low, double High) Estimate(IReadOnlyList<double> baseline, IReadOnlyList<double> candidate, double alpha)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(candidate);
        var differences = candidate.SelectMany(c => baseline.Select(b => c - b)).Order().ToArray();
        if (differences.Length == 0)
        {
            return (double.NaN, double.NaN, double.NaN);
        }

        var shift = Comparison.Median(differences);
        var k = CriticalCount(baseline.Count, candidate.Count, alpha);
        return k < 1 ? (shift, double.NaN, double.NaN) : (shift, differences[k - 1], differences[differences.Length - k]);
    }

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
    private static int CriticalCount(int m, int n, double alpha)
    {
        if (m + n > ExactLimit)
        {
            var z = InverseUpperTail(alpha / 2);
            return Math.Max(0, (int)Math.Floor((m * n / 2.0) - (z * Math.Sqrt(m * n * (m + n + 1) / 12.0))));
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

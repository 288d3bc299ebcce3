namespace Benchmarks.Host.Reports;

/// <summary>
/// The Mann–Whitney U test (Wilcoxon rank-sum), two-sided. Exact — the permutation distribution of the
/// rank sum, ties included through mid-ranks — when both groups together hold at most 60 values;
/// the normal approximation with tie and continuity corrections beyond.
/// </summary>
internal static class MannWhitney
{
    private const int ExactLimit = 60;

    /// <summary>The two-sided p-value for "the two groups come from the same distribution".</summary>
    public static double PValue(IReadOnlyList<double> first, IReadOnlyList<double> second)
    {
        ArgumentNullException.ThrowIfNull(first);
        ArgumentNullException.ThrowIfNull(second);
        if (first.Count == 0 || second.Count == 0)
        {
            throw new ArgumentException("Both groups need at least one value.");
        }

        // Twice the mid-ranks, so that every rank is an integer.
        var all = first.Select(v => (Value: v, First: true)).Concat(second.Select(v => (Value: v, First: false))).OrderBy(x => x.Value).ToArray();
        var doubled = new int[all.Length];
        for (var i = 0; i < all.Length;)
        {
            var j = i;
            while (j + 1 < all.Length && all[j + 1].Value.Equals(all[i].Value))
            {
                j++;
            }

            for (var k = i; k <= j; k++)
            {
                doubled[k] = i + j + 2;
            }

            i = j + 1;
        }

        long observed = 0;
        for (var i = 0; i < all.Length; i++)
        {
            observed += all[i].First ? doubled[i] : 0;
        }

        var n = first.Count;
        return all.Length <= ExactLimit ? Exact(doubled, n, observed) : Normal(doubled, n, observed);
    }

    private static double Exact(int[] doubledRanks, int n, long observed)
    {
        // ways[k][s]: subsets of k ranks whose doubled sum is s.
        var total = doubledRanks.Sum();
        var ways = new double[n + 1, total + 1];
        ways[0, 0] = 1;
        foreach (var rank in doubledRanks)
        {
            for (var k = n; k >= 1; k--)
            {
                for (var s = total; s >= rank; s--)
                {
                    ways[k, s] += ways[k - 1, s - rank];
                }
            }
        }

        var mean = (double)n * total / doubledRanks.Length;
        var distance = Math.Abs(observed - mean);
        double extreme = 0, all = 0;
        for (var s = 0; s <= total; s++)
        {
            all += ways[n, s];
            if (Math.Abs(s - mean) >= distance - 1e-9)
            {
                extreme += ways[n, s];
            }
        }

        return Math.Min(1, extreme / all);
    }

    private static double Normal(int[] doubledRanks, int n, long observed)
    {
        var count = doubledRanks.Length;
        var m = count - n;
        var rankSum = observed / 2.0;
        var u = rankSum - ((double)n * (n + 1) / 2.0);
        var mean = (double)n * m / 2.0;
        var ties = doubledRanks.GroupBy(r => r).Sum(g => Math.Pow(g.Count(), 3) - g.Count());
        var variance = (double)n * m / 12.0 * (count + 1 - (ties / (count * (count - 1.0))));
        if (variance <= 0)
        {
            return 1;
        }

        var z = (Math.Abs(u - mean) - 0.5) / Math.Sqrt(variance);
        return Math.Min(1, 2 * UpperTail(Math.Max(0, z)));
    }

    /// <summary>P(Z &gt; z) for a standard normal Z (Abramowitz–Stegun 7.1.26, error below 1.5e-7).</summary>
    internal static double UpperTail(double z)
    {
        var x = z / Math.Sqrt(2);
        var t = 1 / (1 + (0.3275911 * x));
        var polynomial = t * (0.254829592 + (t * (-0.284496736 + (t * (1.421413741 + (t * (-1.453152027 + (t * 1.061405429))))))));
        var erfc = polynomial * Math.Exp(-x * x);
        return erfc / 2;
    }
}

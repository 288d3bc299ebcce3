using Benchmarks.Host.Reports;

namespace Benchmarks.Tests.Reports;

/// <summary>
/// The best split the detector proposes and tests every shuffle with, computed in one pass that
/// moves each value to the left side (its distances to the values already there, the rest from its
/// spread), against the energy statistic computed pair by pair at every split.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ChangePointSplitTests
{
    [Theory]
    [InlineData(6, 3, false)]
    [InlineData(7, 2, false)]
    [InlineData(60, 3, false)]
    [InlineData(60, 3, true)]
    [InlineData(121, 5, false)]
    [InlineData(120, 3, true)]
    public void The_best_split_is_the_pairwise_energys_largest(int length, int minSegment, bool ties)
    {
        var random = new Random(length * 31 + minSegment);
        // The pairwise check costs n³ a series: fewer of the long ones.
        for (var series = 0; series < (length > 100 ? 8 : 40); series++)
        {
            // Ties: values on a coarse grid, as rates rounded in a store are.
            var x = Enumerable.Range(0, length).Select(i => (i < length / 3 ? 100.0 : 97.0)
                + (random.NextDouble() * 6)).Select(v => ties ? Math.Round(v) : v).ToArray();
            var (split, energy) = ChangePointDetector.BestSplit(x, minSegment);

            var brute = Enumerable.Range(minSegment, length - (2 * minSegment) + 1).Select(left => (Left: left,
                Energy: ChangePointDetector.Energy(x, left))).ToList();
            var largest = brute.Max(b => b.Energy);
            Assert.Equal(largest, energy, 1e-9 * Math.Max(1, Math.Abs(largest)));
            Assert.Equal(largest, ChangePointDetector.Energy(x, split), 1e-9 * Math.Max(1, Math.Abs(largest)));
            if (!ties)
            {
                Assert.Equal(brute.First(b => b.Energy == largest).Left, split);
            }
        }
    }

    [Fact]
    public void A_series_too_short_to_split_has_no_split()
    {
        Assert.Equal(-1, ChangePointDetector.BestSplit([1, 2, 3, 4, 5], 3).Split);
    }
}

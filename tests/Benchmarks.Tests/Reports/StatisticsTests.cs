using Benchmarks.Host.Reports;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Reports;

/// <summary>The comparison statistics on constructed samples with known answers.</summary>
public sealed class StatisticsTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Mann_whitney_matches_known_exact_and_approximate_p_values()
    {
        // Fully separated 5 vs 5: 2 of C(10,5)=252 arrangements are as extreme (two-sided exact p = 0.0079).
        Assert.Equal(2.0 / 252, MannWhitney.PValue([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]), 6);

        // 3 vs 3 can never go below p = 0.1 two-sided: too few runs for alpha 0.05.
        Assert.Equal(0.1, MannWhitney.PValue([1, 2, 3], [4, 5, 6]), 6);
        Assert.Equal(1.0, MannWhitney.PValue([5, 5, 5], [5, 5, 5]), 6);

        // Ties across groups: [1,2,2] vs [2,3,4] (mid-ranks) — exact p over all 20 splits is 0.3.
        Assert.Equal(0.3, MannWhitney.PValue([1, 2, 2], [2, 3, 4]), 6);

        // Large groups use the normal approximation: interleaved equal groups give p near 1, shifted ones a tiny p.
        var left = Enumerable.Range(0, 40).Select(i => (double)(2 * i)).ToArray();
        var right = Enumerable.Range(0, 40).Select(i => (double)((2 * i) + 1)).ToArray();
        Assert.True(MannWhitney.PValue(left, right) > 0.8);
        Assert.True(MannWhitney.PValue(left, [.. left.Select(v => v + 1000)]) < 1e-10);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Identical_groups_show_no_change()
    {
        var rows = Compare([100, 101, 99, 100, 102], [100, 101, 99, 100, 102]);
        Assert.All(rows, r => Assert.Equal(ComparisonVerdict.NoChange, r.Verdict));
        Assert.Equal(0, Row(rows, "http/rps/mean").ChangePercent, 6);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_ten_percent_shift_is_better_for_throughput_and_worse_for_latency()
    {
        var rows = Compare([100, 101, 99, 100, 102], [110, 111, 109, 110, 112]);
        var rps = Row(rows, "http/rps/mean");
        Assert.Equal(ComparisonVerdict.Better, rps.Verdict);
        Assert.Equal(10, rps.ChangePercent, 6);
        Assert.True(rps.PValue < 0.05);

        // The latency of SampleRuns is rps/100 here: it went up, and up is worse for latency.
        Assert.Equal(ComparisonVerdict.Worse, Row(rows, "http/latency/50").Verdict);

        // CPU has no better direction: a significant move is "changed" (here it did not move).
        Assert.Equal(ComparisonVerdict.NoChange, Row(rows, "benchmarks/cpu/user").Verdict);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_noisy_shift_is_inconclusive_a_tight_one_no_change_and_a_small_significant_one_under_the_threshold()
    {
        // Not significant, but with this much noise the change could be −20% or +30%: too few runs to call it no change.
        var noisy = Row(Compare([80, 120, 95, 130, 70], [90, 125, 100, 135, 75]), "http/rps/mean");
        Assert.Equal(ComparisonVerdict.Inconclusive, noisy.Verdict);
        Assert.Contains("yet the change could be anywhere in", noisy.Note, StringComparison.Ordinal);

        // Not significant, and every change the interval holds is within the threshold: no change.
        var tight = Row(Compare([100, 101, 99, 100.5, 99.5], [100.2, 100.8, 99.3, 100.1, 99.9]), "http/rps/mean");
        Assert.Equal(ComparisonVerdict.NoChange, tight.Verdict);
        Assert.Equal("within noise", tight.Note);

        var small = Row(Compare([100, 100.1, 100.2, 100.3, 100.4], [102, 102.1, 102.2, 102.3, 102.4]), "http/rps/mean");
        Assert.True(small.PValue < 0.05);
        Assert.Equal(ComparisonVerdict.NoChange, small.Verdict);
        Assert.Contains("threshold", small.Note, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Too_few_runs_for_significance_are_inconclusive_not_no_change()
    {
        Assert.Equal("inconclusive: 1 run a side cannot reach p < 0.05; run at least 4 a side", Row(Compare([100], [200]), "http/rps/mean").Note);

        // 3 against 3 can never reach p < 0.05 (the most extreme split gives 2/20 = 0.1), however far apart.
        var three = Row(Compare([100_000, 101_000, 99_000], [16_000, 16_500, 15_800]), "http/rps/mean");
        Assert.Equal(ComparisonVerdict.Inconclusive, three.Verdict);
        Assert.Null(three.PValue);
        Assert.Contains("3 runs a side cannot reach p < 0.05; run at least 4 a side", three.Note, StringComparison.Ordinal);

        // 6 against 6 of the same difference is significant.
        var six = Row(Compare([100_000, 101_000, 99_000, 100_500, 99_500, 100_200], [16_000, 16_500, 15_800, 16_200, 15_900, 16_100]), "http/rps/mean");
        Assert.Equal(ComparisonVerdict.Worse, six.Verdict);
        Assert.True(six.PValue < 0.01);

        Assert.Equal(0.1, HodgesLehmann.SmallestPValue(3, 3), 9);
        Assert.Equal(4, HodgesLehmann.RunsNeeded(0.05));
        Assert.Equal(5, HodgesLehmann.RunsNeeded(0.01));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Each_order_statistic_of_the_differences_is_selected_exactly_without_materializing_them()
    {
        var random = new Random(29);
        for (var round = 0; round < 200; round++)
        {
            // Ties, negatives, fractions and wide ranges: the selected value is the one a full sort gives.
            var scale = Math.Pow(10, random.Next(-3, 7));
            var after = Enumerable.Range(0, random.Next(1, 40)).Select(_ => Math.Round((random.NextDouble() - 0.3) * scale,
                random.Next(0, 3))).Order().ToArray();
            var before = Enumerable.Range(0, random.Next(1, 40)).Select(_ => Math.Round((random.NextDouble() - 0.5) * scale,
                random.Next(0, 3))).Order().ToArray();
            var all = after.SelectMany(a => before.Select(b => a - b)).Order().ToArray();
            foreach (var rank in new long[] { 1, all.Length, (all.Length + 1) / 2, random.Next(1, all.Length + 1) })
            {
                Assert.Equal(all[rank - 1], HodgesLehmann.Select(after, before, rank));
            }
        }

        // 20,000 a side (400 million differences): answered, the shift where it is, in bounded memory.
        var large = Enumerable.Range(0, 20_000).Select(i => 100_000.0 + (i % 997)).ToList();
        var shifted = large.Select(v => v * 0.9).ToList();
        var allocated = GC.GetAllocatedBytesForCurrentThread();
        var (shift, low, high) = HodgesLehmann.Estimate(large, shifted, 0.05);
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - allocated < 10_000_000, "no n·m array");
        Assert.InRange(shift, -10_100, -9_900);
        Assert.True(low <= shift && shift <= high);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_hodges_lehmann_shift_and_interval_match_the_tables()
    {
        // m = n = 5, 95%: the interval is the 3rd and 23rd of the 25 ordered differences (critical U = 2).
        var (shift, low, high) = HodgesLehmann.Estimate([1, 2, 3, 4, 5], [11, 12, 13, 14, 15], 0.05);
        Assert.Equal(10, shift);
        Assert.Equal(7, low);
        Assert.Equal(13, high);

        // Too small for 95%: no bounds rather than invented ones.
        var (_, tinyLow, tinyHigh) = HodgesLehmann.Estimate([1, 2], [3, 4], 0.05);
        Assert.True(double.IsNaN(tinyLow) && double.IsNaN(tinyHigh));

        // Large samples (normal approximation): a constant shift of 50 lies inside its interval, and the interval is narrow.
        var baseline = Enumerable.Range(0, 40).Select(i => 1000.0 + (i * 7 % 13)).ToList();
        var candidate = baseline.Select(v => v + 50).ToList();
        var (bigShift, bigLow, bigHigh) = HodgesLehmann.Estimate(baseline, candidate, 0.05);
        Assert.Equal(50, bigShift);
        Assert.InRange(50, bigLow, bigHigh);
        Assert.True(bigHigh - bigLow < 10);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void History_flags_two_results_in_a_row_outside_the_band_and_not_a_single_blip()
    {
        double[] values = [100, 101, 99, 100, 102, 98, 100, 101, 85, 100, 99, 84, 83];
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        var series = values.Select((v, i) => (SampleRuns.Create(rps: v, startedAt: start.AddDays(i)), v)).ToList();

        var points = RegressionDetector.Analyze(series, window: 7, sigmas: 2, consecutive: 2, higherIsBetter: true);

        Assert.True(points[8].Outside);
        Assert.False(points[8].Flagged);
        Assert.False(points[9].Flagged);
        Assert.False(points[11].Flagged);
        Assert.True(points[12].Flagged);
        Assert.Equal("regression", points[12].Direction);
        Assert.Equal(1, points.Count(p => p.Flagged));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void History_takes_its_band_over_the_iterations_of_the_runs_before()
    {
        // Runs whose means agree to 1% but whose iterations spread ±10%: two results in a row 8% down
        // leave a band of means, not a band of the samples behind them.
        double[] values = [100, 101, 99, 100, 100, 99, 101, 92, 92];
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        var series = values.Select((v, i) =>
        {
            var run = SampleRuns.Create(rps: v, startedAt: start.AddDays(i));
            run.Iterations = [.. new[] { v * 0.9, v,
                v * 1.1 }.Select(x => new SortedDictionary<string, double>(StringComparer.Ordinal) { ["http/rps/mean"] = x })];
            return (run, v);
        }).ToList();

        var byMeans = RegressionDetector.Analyze(series, window: 7, sigmas: 2, consecutive: 2, higherIsBetter: true);
        var bySamples = RegressionDetector.Analyze(series, window: 7, sigmas: 2, consecutive: 2, higherIsBetter: true,
            run => RunSamples.Of(run, "http/rps/mean"));

        Assert.True(byMeans[8].Flagged);
        Assert.False(bySamples[8].Flagged);
        Assert.True(bySamples[8].BandLow < 85, $"{bySamples[8].BandLow}");
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_change_interval_of_a_positive_quantity_never_goes_below_minus_100_percent()
    {
        // Widely spread sides: a shift's interval over the baseline median would reach far below −100%.
        var rows = Compare([100_000, 20_000, 180_000, 60_000, 140_000], [30_000, 90_000, 10_000, 150_000, 50_000]);
        var rate = Row(rows, "http/rps/mean");
        Assert.True(rate.ChangeLow > -100, $"[{rate.ChangeLow}, {rate.ChangeHigh}]");
        Assert.True(rate.ChangeHigh > rate.ChangeLow);
        Assert.True(rate.ChangePercent < 0, $"{rate.ChangePercent}%");
    }

    private static IReadOnlyList<ComparisonRow> Compare(double[] before, double[] after)
    {
        var start = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        RunDocument Run(double rps, int i) => SampleRuns.Create(rps: rps, latency: rps / 100, startedAt: start.AddMinutes(i));
        return Comparison.Create(
            new RunGroup("before", [.. before.Select(Run)]),
            new RunGroup("after", [.. after.Select(Run)]),
            new ComparisonSettings()).Rows;
    }

    private static ComparisonRow Row(IReadOnlyList<ComparisonRow> rows, string name) => rows.Single(r => r.Name == name);
}

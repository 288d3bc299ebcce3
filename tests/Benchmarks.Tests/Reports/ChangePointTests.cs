using Benchmarks.Host.Documents;
using Benchmarks.Host.Reports;

namespace Benchmarks.Tests.Reports;

/// <summary>
/// The change-point detector judged on series whose answer is known: flat ones (every alarm is
/// false) and ones with one step of known size and place, in noise of the size real runs show,
/// with the 2σ band rule measured on the same series beside it.
/// </summary>
public sealed class ChangePointTests(ITestOutputHelper output)
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_step_is_found_where_it_is_with_its_size_and_a_step_back_is_its_recovery()
    {
        var noise = new Random(7);
        var values = Enumerable.Range(0, 60).Select(i => (i < 20 ? 100.0 : i < 40 ? 90.0 : 100.0) * (1 + (0.01 * Gaussian(noise)))).ToList();
        var points = ChangePointDetector.Detect(values, ChangePointSettings.Default);
        Assert.Equal([20, 40], points.Select(p => p.Index));
        Assert.InRange(points[0].Change, -0.11, -0.09);
        Assert.True(points[0].PValue < 0.01);
        Assert.Equal(40, points[0].RecoveredAt);
        Assert.Null(points[1].RecoveredAt);

        // Not a step: one outlier, and a change smaller than the smallest reported one.
        Assert.DoesNotContain(
            ChangePointDetector.Detect([.. values.Take(20), .. Enumerable.Repeat(100.0, 10), 150, .. Enumerable.Repeat(100.0, 10)],
                ChangePointSettings.Default),
            p => true);
        var small = Enumerable.Range(0, 60).Select(i => (i < 30 ? 100.0 : 101.0) * (1 + (0.001 * Gaussian(noise)))).ToList();
        Assert.Empty(ChangePointDetector.Detect(small, ChangePointSettings.Default));
        Assert.Single(ChangePointDetector.Detect(small, ChangePointSettings.Default with { MinChange = 0.005 }));

        // Same series, same answer: the shuffles are seeded.
        Assert.Equal(ChangePointDetector.Detect(values, ChangePointSettings.Default), ChangePointDetector.Detect(values, ChangePointSettings.Default));
        Assert.Throws<ArgumentException>(() => ChangePointDetector.Detect(values, ChangePointSettings.Default with { Confidence = 1 }));
    }

    /// <summary>
    /// The targets: a 5% step in runs that vary by 3%, placed anywhere from the 10th run to the
    /// 50th of 60, found within 5 runs of where it is in at least 90% of series, and at most 1
    /// false alarm per 100 flat series of 60 runs. Printed beside them: how many runs must follow
    /// a step before it is found (the series judged each time a run is added), and the band rule
    /// (mean ± 2σ of the 7 runs before, 2 in a row) on the same series.
    /// </summary>
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_five_percent_step_in_three_percent_noise_is_found_within_five_runs_of_it_and_flat_series_raise_at_most_one_alarm_in_a_hundred()
    {
        const int Flat = 500, Series = 200, Online = 30;
        const double Cv = 0.03;
        var settings = ChangePointSettings.Default;
        var random = new Random(2026);
        int falseAlarms = 0, bandFalseAlarms = 0;
        for (var s = 0; s < Flat; s++)
        {
            var flat = Enumerable.Range(0, 60).Select(_ => 100 * (1 + (Cv * Gaussian(random)))).ToList();
            falseAlarms += ChangePointDetector.Detect(flat, settings).Count > 0 ? 1 : 0;
            bandFalseAlarms += BandFlags(flat).Any(f => f) ? 1 : 0;
        }

        int found = 0, bandFound = 0, extra = 0;
        var delays = new List<int>();
        for (var s = 0; s < Series; s++)
        {
            // A slowdown of 5% at a run between the 10th and the 50th.
            var at = random.Next(10, 51);
            var stepped = Enumerable.Range(0, 60).Select(i => (i < at ? 100.0 : 95.0) * (1 + (Cv * Gaussian(random)))).ToList();
            var points = ChangePointDetector.Detect(stepped, settings);
            found += points.Any(p => Math.Abs(p.Index - at) <= 5) ? 1 : 0;
            extra += points.Count(p => Math.Abs(p.Index - at) > 5);
            bandFound += BandFlags(stepped).Skip(at).Take(6).Any(f => f) ? 1 : 0;

            // Online: how many runs after the step before it is found where it is.
            if (s >= Online)
            {
                continue;
            }

            var delay = Enumerable.Range(settings.MinSegment, 60 - at - settings.MinSegment + 1)
                .FirstOrDefault(after => ChangePointDetector.Detect(stepped[..(at + after)], settings).Any(p => Math.Abs(p.Index - at) <= 5), -1);
            delays.Add(delay);
        }

        var online = delays.Where(d => d > 0).Order().ToList();
        output.WriteLine($"flat series of 60 runs (3% noise): {falseAlarms} of {Flat} with a false alarm (band rule: {bandFalseAlarms})");
        output.WriteLine($"5% step: found within 5 runs of it in {found} of {Series}, {extra} other change(s) reported (band rule: " +
            $"flagged within 5 runs after it in {bandFound})");
        output.WriteLine($"online: found once {Percentile(online, 0.5)} runs followed it (median), {Percentile(online, 0.9)} (90th percentile); " +
            $"within 5 runs in {delays.Count(d => d is > 0 and <= 5)} of {Online}; never in {delays.Count(d => d < 0)}");
        Assert.True(falseAlarms <= Flat / 100, $"{falseAlarms} false alarms in {Flat} flat series");
        Assert.True(found >= Series * 9 / 10, $"found within 5 runs of it in {found} of {Series}");
    }

    private static string Percentile(List<int> sorted, double q) =>
        sorted.Count == 0 ? "-" : sorted[Math.Min(sorted.Count - 1, (int)(q * sorted.Count))].ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The band rule's flags over a series (runs as plain values).</summary>
    private static bool[] BandFlags(IReadOnlyList<double> values) =>
        [.. RegressionDetector.Analyze([.. values.Select(v => (new RunDocument(), v))], 7, 2, 2, higherIsBetter: true).Select(p => p.Flagged)];

    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}

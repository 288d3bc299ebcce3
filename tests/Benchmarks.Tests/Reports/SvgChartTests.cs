using System.Globalization;
using System.Text.RegularExpressions;
using Benchmarks.Host.Reports;

namespace Benchmarks.Tests.Reports;

/// <summary>The charts' axes: round ticks, percentiles evenly apart, no two x labels on top of each other.</summary>
public sealed partial class SvgChartTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData(15.0, new[] { 0.0, 5, 10, 15 })]
    [InlineData(11.25, new[] { 0.0, 5, 10, 15 })]
    [InlineData(812.0, new[] { 0.0, 200, 400, 600, 800, 1000 })]
    [InlineData(213_299.0, new[] { 0.0, 50_000, 100_000, 150_000, 200_000, 250_000 })]
    [InlineData(0.37, new[] { 0.0, 0.1, 0.2, 0.3, 0.4 })]
    public void The_value_axis_is_ticked_at_round_values_up_to_just_above_the_largest(double max, double[] ticks)
    {
        var svg = SvgChart.Lines("t", "ms", "x", [1, 2], [("s", [max / 2, max], "#000")]);
        Assert.Equal(ticks, Labels(svg, "y-tick").Select(Number));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Percentiles_stand_evenly_apart_so_p99_and_p999_do_not_overlap()
    {
        var svg = SvgChart.Lines("t", "ms", "percentile", [50, 75, 90, 99, 99.9], [("run", [1, 2, 3, 4, 5], "#000")],
            xNames: ["p50", "p75", "p90", "p99", "p99.9"]);
        var ticks = Ticks(svg, "x-tick");
        Assert.Equal(["p50", "p75", "p90", "p99", "p99.9"], ticks.Select(t => t.Label));
        var gaps = ticks.Zip(ticks.Skip(1), (a, b) => b.X - a.X).ToList();
        Assert.All(gaps, g => Assert.InRange(g, gaps[0] - 0.2, gaps[0] + 0.2));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Seconds_are_labelled_at_round_values_and_no_two_labels_touch()
    {
        double[] seconds = [.. Enumerable.Range(1, 30).Select(i => (i * 0.997) - 0.002)];
        var svg = SvgChart.Lines("t", "req/s", "seconds", seconds, [("rate", [.. seconds.Select(_ => 100.0)], "#000")]);
        var ticks = Ticks(svg, "x-tick");
        Assert.InRange(ticks.Count, 3, 10);
        Assert.All(ticks, t => Assert.Equal(0, Number(t.Label) % 5));
        Assert.All(ticks.Zip(ticks.Skip(1), (a, b) => b.X - a.X), g => Assert.True(g >= 44, $"labels {g} px apart"));

        // Few whole values (connections) are labelled where they are, one that would touch its neighbour left out.
        var connections = Ticks(SvgChart.Lines("t", "req/s", "connections", [16, 20, 64, 256], [("kestrel", [1, 2, 3, 4], "#000")]), "x-tick");
        Assert.Equal(["16", "64", "256"], connections.Select(t => t.Label));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_legend_too_wide_for_one_line_wraps_and_the_chart_grows_to_hold_it()
    {
        var series = Enumerable.Range(0, 8).Select(i => ($"11-26 12:54:{i:00}", (IReadOnlyList<double>)[1.0, 2.0], SvgChart.Palette[i])).ToList();
        var svg = SvgChart.Lines("t", "ms", "percentile", [50, 99], series, xNames: ["p50", "p99"]);

        var height = double.Parse(Regex.Match(svg, "height=\"(\\d+)\"").Groups[1].Value, CultureInfo.InvariantCulture);
        Assert.True(height > 300, $"height {height}");
        var legend = Regex.Matches(svg, "<text class=\"legend\" x=\"(\\d+)\" y=\"(\\d+)\"[^>]*>([^<]+)<").Select(m => (
            X: int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture), Y: int.Parse(m.Groups[2].Value, CultureInfo.InvariantCulture),
            Text: m.Groups[3].Value)).ToList();
        Assert.Equal(8, legend.Count);
        Assert.True(legend.Select(l => l.Y).Distinct().Count() >= 2, "one line of legend");
        Assert.All(legend, l => Assert.True(l.X + (7 * l.Text.Length) <= 760, $"'{l.Text}' at {l.X} runs past the chart"));
        Assert.All(legend, l => Assert.True(l.Y <= height, $"'{l.Text}' below the chart"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_log_scale_ticks_each_decade_and_keeps_a_10_ms_target_apart_from_an_800_ms_tail()
    {
        var svg = SvgChart.Lines("t", "ms", "rate", [1000, 2000, 3000], [("p99", [0.8, 12, 800], "#000"), ("target p99<10ms", [10, 10, 10], "#999")],
            logScale: true);

        var ticks = Labels(svg, "y-tick").Select(Number).ToList();
        Assert.Equal(0.1, ticks[0]);
        Assert.Equal(1000, ticks[^1]);
        Assert.Contains(10, ticks);
        Assert.Contains("(log scale)", svg, StringComparison.Ordinal);

        // On a linear 0-1000 axis the 10 ms line sits 2 px above the floor; here a third of the height up.
        var target = YOfTick(svg, "10");
        var floor = YOfTick(svg, "0.1");
        var top = YOfTick(svg, "1,000");
        Assert.InRange((floor - target) / (floor - top), 0.45, 0.55);
    }

    private static double YOfTick(string svg, string label) =>
        double.Parse(Regex.Match(svg, "<text class=\"y-tick\" x=\"[0-9.]+\" y=\"([0-9.]+)\"[^>]*>" + Regex.Escape(label) + "</text>").Groups[1].Value,
            CultureInfo.InvariantCulture);

    private static List<string> Labels(string svg, string kind) => [.. Ticks(svg, kind).Select(t => t.Label)];

    private static List<(double X, string Label)> Ticks(string svg, string kind) =>
        [.. TickPattern().Matches(svg).Where(m => m.Groups["kind"].Value == kind).Select(m => (double.Parse(m.Groups["x"].Value, CultureInfo.InvariantCulture),
            m.Groups["label"].Value))];

    private static double Number(string label) => double.Parse(label.Replace(",", "", StringComparison.Ordinal), CultureInfo.InvariantCulture);

    [GeneratedRegex("<text class=\"(?<kind>[xy]-tick)\" x=\"(?<x>[0-9.]+)\"[^>]*>(?<label>[^<]+)</text>")]
    private static partial Regex TickPattern();
}

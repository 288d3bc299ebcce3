using System.Globalization;
using System.Net;
using System.Text;

namespace Benchmarks.Host.Reports;

/// <summary>Charts as inline SVG: no script, no network; each bar and point carries a tooltip with its value.</summary>
internal static class SvgChart
{
    private const int Width = 760;
    private const int Height = 300;
    private const int Left = 70;
    private const int Right = 20;
    private const int Top = 36;
    private const int Bottom = 60;

    public static readonly string[] Palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

    /// <summary>Bars per category; several series side by side, or stacked.</summary>
    public static string Bars(string title, string unit, IReadOnlyList<string> categories,
        IReadOnlyList<(string Name, IReadOnlyList<double> Values, string Color)> series, bool stacked)
    {
        var max = stacked
            ? Enumerable.Range(0, categories.Count).Select(i => series.Sum(s => Finite(s.Values[i]))).DefaultIfEmpty(0).Max()
            : series.SelectMany(s => s.Values).Select(Finite).DefaultIfEmpty(0).Max();
        var svg = Open(title, unit, max, out var scale);
        var plotWidth = Width - Left - Right;
        var slot = plotWidth / (double)Math.Max(1, categories.Count);
        var barWidth = stacked ? slot * 0.6 : slot * 0.8 / Math.Max(1, series.Count);
        for (var c = 0; c < categories.Count; c++)
        {
            var x0 = Left + (c * slot) + (slot * (stacked ? 0.2 : 0.1));
            double baseY = Height - Bottom;
            for (var s = 0; s < series.Count; s++)
            {
                var value = Finite(series[s].Values[c]);
                var h = value * scale;
                var x = stacked ? x0 : x0 + (s * barWidth);
                var y = stacked ? baseY - h : Height - Bottom - h;
                svg.Append(Invariant($"<rect class=\"bar\" x=\"{x:0.#}\" y=\"{y:0.#}\" width=\"{Math.Max(1, barWidth - 2):0.#}\" height=\"{h:0.#}\" "));
                svg.Append(Invariant($"fill=\"{series[s].Color}\" data-value=\"{value:0.###}\"><title>{Encode(categories[c])} {Encode(series[s].Name)}: "));
                svg.Append(Invariant($"{ComparisonTextWriter.Number(value)} {Encode(unit)}</title></rect>"));
                if (stacked)
                {
                    baseY -= h;
                }
            }

            svg.Append(Invariant($"<text x=\"{Left + (c * slot) + (slot / 2):0.#}\" y=\"{Height - Bottom + 16}\" text-anchor=\"middle\" "));
            svg.Append(Invariant($"font-size=\"11\">{Encode(Shorten(categories[c]))}</text>"));
        }

        return Close(svg, series.Select(s => (s.Name, s.Color)).ToList());
    }

    /// <summary>
    /// Every sample of each group as a point (a strip per group, points spread across it in order),
    /// with the group's median as a line: the distribution behind a comparison, not just its medians.
    /// </summary>
    public static string Points(string title, string unit, IReadOnlyList<(string Name, IReadOnlyList<double> Values, string Color)> groups)
    {
        var svg = Open(title, unit, groups.SelectMany(g => g.Values).Where(double.IsFinite).DefaultIfEmpty(0).Max(), out var scale);
        var slot = (Width - Left - Right) / (double)Math.Max(1, groups.Count);
        for (var g = 0; g < groups.Count; g++)
        {
            var (name, values, color) = groups[g];
            var x0 = Left + (g * slot) + (slot * 0.25);
            var span = slot * 0.5;
            for (var i = 0; i < values.Count; i++)
            {
                var x = x0 + (values.Count == 1 ? span / 2 : span * i / (values.Count - 1));
                svg.Append(Invariant($"<circle class=\"sample\" cx=\"{x:0.#}\" cy=\"{Height - Bottom - (Finite(values[i]) * scale):0.#}\" r=\"4\" "));
                svg.Append(Invariant($"fill=\"{color}\" fill-opacity=\"0.75\" data-value=\"{values[i]:0.###}\"><title>{Encode(name)} #{i + 1}: "));
                svg.Append(Invariant($"{ComparisonTextWriter.Number(values[i])} {Encode(unit)}</title></circle>"));
            }

            if (values.Count > 0)
            {
                var median = Comparison.Median(values);
                var y = Height - Bottom - (Finite(median) * scale);
                svg.Append(Invariant($"<line class=\"median\" x1=\"{x0 - 8:0.#}\" x2=\"{x0 + span + 8:0.#}\" y1=\"{y:0.#}\" y2=\"{y:0.#}\" stroke=\"#222\" "));
                svg.Append(Invariant($"stroke-width=\"2\"><title>{Encode(name)} median: {ComparisonTextWriter.Number(median)} {Encode(unit)}</title></line>"));
            }

            svg.Append(Invariant($"<text x=\"{Left + (g * slot) + (slot / 2):0.#}\" y=\"{Height - Bottom + 16}\" text-anchor=\"middle\" "));
            svg.Append(Invariant($"font-size=\"11\">{Encode(Shorten(name))} ({values.Count})</text>"));
        }

        return Close(svg, [.. groups.Select(g => (g.Name, g.Color))]);
    }

    /// <summary>Lines over numeric x; an optional band (low/high per x) and marked points.</summary>
    public static string Lines(string title, string unit, string xLabel, IReadOnlyList<double> x, IReadOnlyList<(string Name, IReadOnlyList<double> Values,
        string Color)> series,
        IReadOnlyList<(double Low, double High)>? band = null, IReadOnlyList<bool>? marked = null, IReadOnlyList<string>? xNames = null,
        string? bandName = null, bool logScale = false)
    {
        var values = series.SelectMany(s => s.Values).Concat(band?.SelectMany(b => new[] { b.Low, b.High }) ?? []).Where(double.IsFinite).ToList();
        // A log scale (latencies spanning decades: a 10 ms target beside an 800 ms tail) draws only positive values.
        var positive = values.Where(v => v > 0).ToList();
        var log = logScale && positive.Count > 0;
        double scale = 0;
        var (low, high) = log
            ? (Math.Floor(Math.Log10(positive.Min())), Math.Max(Math.Floor(Math.Log10(positive.Min())) + 1, Math.Ceiling(Math.Log10(positive.Max()))))
            : (0, 0);
        var svg = log ? OpenLog(title, unit, low, high) : Open(title, unit, values.DefaultIfEmpty(0).Max(), out scale);

        // Named points (percentiles) stand evenly apart, so p99 and p99.9 do not overlap; numbers stand at their value.
        var named = xNames is not null;
        IReadOnlyList<double> at = named ? [.. Enumerable.Range(0, x.Count).Select(i => (double)i)] : x;
        var minX = at.DefaultIfEmpty(0).Min();
        var spanX = Math.Max(1e-9, at.DefaultIfEmpty(1).Max() - minX);
        var plotWidth = Width - Left - Right;
        double X(int i) => Left + ((at[i] - minX) / spanX * plotWidth);
        double XAt(double v) => Left + ((v - minX) / spanX * plotWidth);
        double Y(double v) => log
            ? Height - Bottom - ((Math.Log10(Math.Max(v, Math.Pow(10, low))) - low) / (high - low) * (Height - Top - Bottom))
            : Height - Bottom - (v * scale);
        if (band is not null)
        {
            var upper = string.Join(' ',
                band.Select((b, i) => (b, i)).Where(p => double.IsFinite(p.b.High)).Select(p => Invariant($"{X(p.i):0.#},{Y(p.b.High):0.#}")));
            var lower = string.Join(' ',
                band.Select((b, i) => (b, i)).Where(p => double.IsFinite(p.b.Low)).Reverse().Select(p => Invariant($"{X(p.i):0.#},{Y(p.b.Low):0.#}")));
            if (upper.Length > 0)
            {
                svg.Append(Invariant($"<polygon class=\"band\" points=\"{upper} {lower}\" fill=\"#4e79a7\" fill-opacity=\"0.15\" stroke=\"none\"/>"));
            }
        }

        foreach (var (name, ys, color) in series)
        {
            var points = string.Join(' ', ys.Select((v, i) => (v, i)).Where(p => double.IsFinite(p.v)).Select(p => Invariant($"{X(p.i):0.#},{Y(p.v):0.#}")));
            svg.Append(Invariant($"<polyline class=\"line\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{points}\">"));
            svg.Append(Invariant($"<title>{Encode(name)}</title></polyline>"));
            for (var i = 0; i < ys.Count; i++)
            {
                if (double.IsFinite(ys[i]))
                {
                    var flag = marked is not null && marked[i];
                    svg.Append(Invariant($"<circle class=\"{(flag ? "point flagged" : "point")}\" cx=\"{X(i):0.#}\" cy=\"{Y(ys[i]):0.#}\" "));
                    svg.Append(Invariant($"r=\"{(flag ? 6 : 3)}\" fill=\"{(flag ? "#e15759" : color)}\"><title>{Encode(name)} at "));
                    svg.Append(Invariant($"{Encode(xNames?[i] ?? ComparisonTextWriter.Number(x[i]))}: {ComparisonTextWriter.Number(ys[i])} "));
                    svg.Append(Invariant($"{Encode(unit)}</title></circle>"));
                }
            }
        }

        foreach (var (position, label) in XTicks(x, xNames, XAt, X))
        {
            // A label at the right edge ends there rather than running past it.
            var anchor = position > Width - Right - 40 ? "end" : "middle";
            svg.Append(Invariant($"<text class=\"x-tick\" x=\"{position:0.#}\" y=\"{Height - Bottom + 16}\" text-anchor=\"{anchor}\" "));
            svg.Append(Invariant($"font-size=\"11\">{Encode(label)}</text>"));
        }

        svg.Append(Invariant($"<text x=\"{Left + (plotWidth / 2)}\" y=\"{Height - Bottom + 34}\" text-anchor=\"middle\" font-size=\"11\" "));
        svg.Append(Invariant($"fill=\"#555\">{Encode(xLabel)}</text>"));
        var legend = series.Select(s => (s.Name, s.Color)).ToList();
        if (band is not null && bandName is not null)
        {
            legend.Add((bandName, "#b8c9dc"));
        }

        return Close(svg, legend);
    }

    private static StringBuilder Open(string title, string unit, double max, out double scale)
    {
        var step = NiceStep(max / 5);
        var count = Math.Max(1, (int)Math.Ceiling((max > 0 ? max : 1) / step - 1e-9));
        var top = step * count;
        scale = (Height - Top - Bottom) / top;
        var svg = new StringBuilder();
        svg.Append(Invariant($"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {Width} {Height}\" width=\"{Width}\" "));
        svg.Append(Invariant($"height=\"{Height}\" role=\"img\" aria-label=\"{Encode(title)}\">"));
        svg.Append(Invariant($"<text class=\"chart-title\" x=\"{Left}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{Encode(title)}</text>"));
        for (var i = 0; i <= count; i++)
        {
            var value = step * i;
            var y = Height - Bottom - (value * scale);
            svg.Append(Invariant($"<line x1=\"{Left}\" x2=\"{Width - Right}\" y1=\"{y:0.#}\" y2=\"{y:0.#}\" stroke=\"#ddd\"/><text class=\"y-tick\" "));
            svg.Append(Invariant($"x=\"{Left - 6}\" y=\"{y + 4:0.#}\" text-anchor=\"end\" font-size=\"11\">{ComparisonTextWriter.Number(value)}</text>"));
        }

        svg.Append(Invariant($"<text x=\"14\" y=\"{Top + ((Height - Top - Bottom) / 2)}\" font-size=\"11\" transform=\"rotate(-90 14 "));
        svg.Append(Invariant($"{Top + ((Height - Top - Bottom) / 2)})\" text-anchor=\"middle\">{Encode(unit)}</text>"));
        return svg;
    }

    /// <summary>The legend under the chart, an entry after another, onto a new line (the chart growing) when the width is used up.</summary>
    /// <summary>
    /// A chart whose value axis is logarithmic from 10^<paramref name="low"/> to
    /// 10^<paramref name="high"/>, ticked at 1, 2 and 5 of each decade (each decade alone past
    /// three).
    /// </summary>
    private static StringBuilder OpenLog(string title, string unit, double low, double high)
    {
        var svg = new StringBuilder();
        svg.Append(Invariant($"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {Width} {Height}\" width=\"{Width}\" "));
        svg.Append(Invariant($"height=\"{Height}\" role=\"img\" aria-label=\"{Encode(title)}\">"));
        svg.Append(Invariant($"<text class=\"chart-title\" x=\"{Left}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{Encode(title)} (log scale)</text>"));
        double[] steps = high - low <= 3 ? [1, 2, 5] : [1];
        for (var decade = low; decade <= high; decade++)
        {
            foreach (var step in steps)
            {
                var value = step * Math.Pow(10, decade);
                var at = Math.Log10(value);
                if (at > high + 1e-9)
                {
                    break;
                }

                var y = Height - Bottom - ((at - low) / (high - low) * (Height - Top - Bottom));
                svg.Append(Invariant($"<line x1=\"{Left}\" x2=\"{Width - Right}\" y1=\"{y:0.#}\" y2=\"{y:0.#}\" stroke=\"{(step == 1 ? "#ccc" : "#eee")}\"/>"));
                svg.Append(Invariant($"<text class=\"y-tick\" x=\"{Left - 6}\" y=\"{y + 4:0.#}\" text-anchor=\"end\" "));
                svg.Append(Invariant($"font-size=\"11\">{ComparisonTextWriter.Number(value)}</text>"));
            }
        }

        svg.Append(Invariant($"<text x=\"14\" y=\"{Top + ((Height - Top - Bottom) / 2)}\" font-size=\"11\" transform=\"rotate(-90 14 "));
        svg.Append(Invariant($"{Top + ((Height - Top - Bottom) / 2)})\" text-anchor=\"middle\">{Encode(unit)}</text>"));
        return svg;
    }

    private static string Close(StringBuilder svg, IReadOnlyList<(string Name, string Color)> legend)
    {
        var x = Left;
        var row = 0;
        foreach (var (name, color) in legend)
        {
            var width = 24 + (7 * Math.Min(40, name.Length));
            if (x > Left && x + width > Width - Right)
            {
                x = Left;
                row++;
            }

            var y = Height - 14 + (row * 16);
            svg.Append(Invariant($"<rect x=\"{x}\" y=\"{y}\" width=\"10\" height=\"10\" fill=\"{color}\"/>"));
            svg.Append(Invariant($"<text class=\"legend\" x=\"{x + 14}\" y=\"{y + 9}\" font-size=\"11\">{Encode(name)}</text>"));
            x += width;
        }

        if (row > 0)
        {
            var height = Height + (row * 16);
            svg.Replace(Invariant($"viewBox=\"0 0 {Width} {Height}\" width=\"{Width}\" height=\"{Height}\""),
                Invariant($"viewBox=\"0 0 {Width} {height}\" width=\"{Width}\" height=\"{height}\""));
        }

        return svg.Append("</svg>").ToString();
    }

    /// <summary>The round step (1, 2 or 5 times a power of ten) nearest above <paramref name="raw"/>.</summary>
    public static double NiceStep(double raw)
    {
        if (!(raw > 0) || !double.IsFinite(raw))
        {
            return 1;
        }

        var magnitude = Math.Pow(10, Math.Floor(Math.Log10(raw)));
        foreach (var multiple in new[] { 1, 2, 5, 10 })
        {
            if (multiple * magnitude >= raw * (1 - 1e-9))
            {
                return multiple * magnitude;
            }
        }

        return 10 * magnitude;
    }

    /// <summary>
    /// The x axis's labels: each named point; each value when there are few whole ones (connections,
    /// rates), skipping one that would touch its neighbour; else round values across the range.
    /// </summary>
    private static IEnumerable<(double Position, string Label)> XTicks(IReadOnlyList<double> x, IReadOnlyList<string>? names, Func<double, double> at,
        Func<int, double> point)
    {
        var last = double.NegativeInfinity;
        if (names is not null || (x.Count <= 12 && x.All(v => v == Math.Round(v))))
        {
            // Labels need their width apart (about 6.5 px a character at 11 px), 44 px at the least.
            var gap = Math.Max(44,
                6.5 * Enumerable.Range(0, x.Count).Select(i => Shorten(names?[i] ?? ComparisonTextWriter.Number(x[i])).Length).DefaultIfEmpty(0).Max());
            for (var i = 0; i < x.Count; i++)
            {
                // One that ends at the right edge (anchored at its end) needs half a label more.
                if (point(i) - last >= (point(i) > Width - Right - 40 ? gap * 1.5 : gap))
                {
                    last = point(i);
                    yield return (point(i), Shorten(names?[i] ?? ComparisonTextWriter.Number(x[i])));
                }
            }

            yield break;
        }

        if (x.Count == 0)
        {
            yield break;
        }

        var (min, max) = (x.Min(), x.Max());
        var step = NiceStep((max - min) / 6);
        for (var value = Math.Ceiling(min / step) * step; value <= max + (step * 1e-9); value += step)
        {
            yield return (at(value), ComparisonTextWriter.Number(Math.Round(value / step) * step));
        }
    }

    private static double Finite(double value) => double.IsFinite(value) ? value : 0;

    private static string Shorten(string text) => text.Length <= 16 ? text : text[..15] + "…";

    private static string Encode(string text) => WebUtility.HtmlEncode(text);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}

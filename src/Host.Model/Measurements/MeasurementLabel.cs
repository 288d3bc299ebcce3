using System.Text;
using System.Text.RegularExpressions;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// A measurement's row label in crank's tables (its metadata's <c>shortDescription</c>, as crank's
/// own agent writes "CPU Usage (%)" or "Requests/sec"): the description's first phrase, without its
/// asides, and the unit. The whole description stays the <c>longDescription</c>.
/// </summary>
internal static class MeasurementLabel
{
    /// <summary>Longer than this, the first phrase is cut at its first comma.</summary>
    public const int Longest = 40;

    public static string Derive(string description, string unit)
    {
        ArgumentNullException.ThrowIfNull(description);
        ArgumentNullException.ThrowIfNull(unit);
        // A short category before a colon ("Open model: …", "HTTP/2: …") is kept, and the phrase after it read.
        var category = "";
        if (description.IndexOf(": ", StringComparison.Ordinal) is > 0 and < 24 and var colon && !description[..colon].Contains('(', StringComparison.Ordinal))
        {
            (category, description) = (description[..(colon + 2)], description[(colon + 2)..]);
        }

        var text = new StringBuilder(category);
        var depth = 0;
        for (var i = 0; i < description.Length; i++)
        {
            var c = description[i];
            if (c == '(')
            {
                depth++;
                continue;
            }

            if (c == ')')
            {
                depth = Math.Max(0, depth - 1);
                continue;
            }

            if (depth > 0)
            {
                continue;
            }

            // The first phrase ends at a colon or a semicolon: what follows explains it.
            if ((c is ':' or ';') && (i + 1 == description.Length || description[i + 1] == ' '))
            {
                break;
            }

            text.Append(c);
        }

        var label = Collapse(text.ToString());
        if (label.Length > Longest && label.IndexOf(", ", 10, StringComparison.Ordinal) is > 0 and var comma)
        {
            // The statistic a later clause names (a percentile, the mean, the busiest interval) stays: it tells rows apart.
            var statistic = s_statistic.Match(label, comma);
            label = label[..comma] + (statistic.Success ? ", " + statistic.Value : "");
        }

        label = label.TrimEnd(' ', ',', '.');
        return unit is "" or "count" ? label : $"{label} ({unit})";
    }

    private static readonly Regex s_statistic = new(
        @"\b(\d+(\.\d+)?(st|nd|rd|th) percentile|median|mean of the intervals|mean|standard deviation|max|busiest interval|largest (second|interval))\b",
        RegexOptions.CultureInvariant, TimeSpan.FromSeconds(1));

    private static string Collapse(string text) =>
        string.Join(' ', text.Split(' ', StringSplitOptions.RemoveEmptyEntries)).Replace(" ,", ",", StringComparison.Ordinal);
}

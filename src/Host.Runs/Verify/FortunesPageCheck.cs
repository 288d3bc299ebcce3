using System.Net;
using System.Text;
using System.Text.RegularExpressions;

namespace Benchmarks.Host.Verify;

/// <summary>
/// The fortunes page as TechEmpower's verifier reads it, whatever the implementation: the fixed
/// table head, one row per Fortune row in the database plus "Additional fortune added at request
/// time.", sorted by message, every message escaped (no raw &lt;, &gt; or ") and equal to the row once
/// unescaped. Whitespace between tags is ignored.
/// </summary>
internal static partial class FortunesPageCheck
{
    public const string Added = "Additional fortune added at request time.";

    private const string Head = "<!doctype html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";

    private const string Tail = "</table></body></html>";

    /// <summary>Null when the page is right; else what is wrong with it, in one line.</summary>
    /// <param name="body">The page.</param>
    /// <param name="stored">The Fortune rows in the database; null checks only the table, the escaping and the order.</param>
    public static string? Problem(byte[] body, IReadOnlyList<(int Id, string Message)>? stored)
    {
        var page = BetweenTags().Replace(Encoding.UTF8.GetString(body).Trim(), "><");
        if (!page.StartsWith(Head, StringComparison.OrdinalIgnoreCase) || !page.EndsWith(Tail, StringComparison.OrdinalIgnoreCase))
        {
            return "the page does not have TechEmpower's table head and end";
        }

        var rows = Row().Matches(page[Head.Length..^Tail.Length]);
        var seen = rows.Select(m => (Id: int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), Raw: m.Groups[2].Value)).ToList();
        if (seen.FirstOrDefault(r => r.Raw.AsSpan().IndexOfAny("<>\"") >= 0) is { Raw: not null } raw)
        {
            return $"fortune {raw.Id} is not HTML-escaped: '{raw.Raw}'";
        }

        var messages = seen.Select(r => (r.Id, Message: WebUtility.HtmlDecode(r.Raw))).ToList();
        if (!messages.Select(m => m.Message).SequenceEqual(messages.Select(m => m.Message).Order(StringComparer.Ordinal)))
        {
            return "the rows are not sorted by message";
        }

        if (!messages.Any(m => m.Id == 0 && m.Message == Added))
        {
            return $"the fortune added at request time ('{Added}') is missing";
        }

        if (stored is null)
        {
            return null;
        }

        var expected = stored.Append((0, Added)).OrderBy(f => f.Item2, StringComparer.Ordinal).ToList();
        if (messages.Count != expected.Count)
        {
            return $"{messages.Count} rows, expected {expected.Count} (the {stored.Count} in the database and the one added at request time)";
        }

        for (var i = 0; i < expected.Count; i++)
        {
            if (messages[i].Id != expected[i].Item1 || messages[i].Message != expected[i].Item2)
            {
                return $"row {i + 1} is {messages[i].Id} '{messages[i].Message}', expected {expected[i].Item1} '{expected[i].Item2}'";
            }
        }

        return null;
    }

    [GeneratedRegex(@">\s+<")]
    private static partial Regex BetweenTags();

    [GeneratedRegex(@"<tr><td>(\d+)</td><td>(.*?)</td></tr>", RegexOptions.Singleline)]
    private static partial Regex Row();
}

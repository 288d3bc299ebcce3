using System.Buffers;
using System.Net;
using System.Text;

namespace Benchmarks.Scenarios.Database;

/// <summary>
/// Accepts the fortunes page when it lists TechEmpower's fortunes and the added one, sorted by
/// message, each message escaped (no raw <c>&lt;</c>, <c>&gt;</c> or <c>"</c>) and equal to the
/// row once unescaped, as TechEmpower's verifier compares them. The page this product renders is
/// matched byte for byte first, without allocating; any other is parsed.
/// </summary>
internal sealed class FortunesValidator : IResponseValidator
{
    private static readonly byte[] s_canonical = Render();

    public int MaxBodyLength => 16 * 1024;

    public bool IsValid(ReadOnlySpan<byte> body) => body.SequenceEqual(s_canonical) || IsEquivalent(body);

    private static bool IsEquivalent(ReadOnlySpan<byte> body)
    {
        var text = Encoding.UTF8.GetString(body).Replace("\r", "", StringComparison.Ordinal).Replace("\n", "", StringComparison.Ordinal);
        var start = Encoding.UTF8.GetString(FortunesPage.Start);
        var end = Encoding.UTF8.GetString(FortunesPage.End);
        if (!text.StartsWith(start, StringComparison.Ordinal) || !text.EndsWith(end, StringComparison.Ordinal) || text.Length < start.Length + end.Length)
        {
            return false;
        }

        var rows = text[start.Length..^end.Length].Split("</td></tr>", StringSplitOptions.None);
        var expected = KnownFortunes.Expected;
        if (rows.Length != expected.Count + 1 || rows[^1].Length != 0)
        {
            return false;
        }

        for (var i = 0; i < expected.Count; i++)
        {
            var cells = rows[i];
            if (!cells.StartsWith("<tr><td>", StringComparison.Ordinal))
            {
                return false;
            }

            var split = cells.IndexOf("</td><td>", StringComparison.Ordinal);
            if (split < 0 || cells[8..split] != expected[i].Id.ToString(System.Globalization.CultureInfo.InvariantCulture))
            {
                return false;
            }

            var message = cells[(split + 9)..];
            if (message.AsSpan().IndexOfAny("<>\"") >= 0 || WebUtility.HtmlDecode(message) != expected[i].Message)
            {
                return false;
            }
        }

        return true;
    }

    private static byte[] Render()
    {
        var page = new ArrayBufferWriter<byte>();
        FortunesPage.Write(page, KnownFortunes.Expected);
        return page.WrittenSpan.ToArray();
    }
}

using System.Globalization;
using System.Text;

namespace Benchmarks.Host.Cli;

/// <summary>
/// Text from a stored document (a label, a name a hand-edited file holds) as it may reach a terminal: control and
/// formatting characters (an escape sequence, a right-to-left override) written as <c>\uXXXX</c>, so that they cannot
/// move the cursor or reorder what the line says.
/// </summary>
internal static class TerminalText
{
    public static string Safe(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!text.Any(Hidden))
        {
            return text;
        }

        var safe = new StringBuilder(text.Length + 16);
        foreach (var c in text)
        {
            _ = Hidden(c) ? safe.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}") : safe.Append(c);
        }

        return safe.ToString();
    }

    private static bool Hidden(char c) => char.IsControl(c) || CharUnicodeInfo.GetUnicodeCategory(c) == UnicodeCategory.Format;
}

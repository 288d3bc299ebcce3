using System.Globalization;

namespace Benchmarks.Scenarios.Database;

/// <summary>
/// TechEmpower's <c>queries</c> parameter: an integer clamped to 1..500 (also one too large for 32
/// bits); missing, empty or unparseable is 1.
/// </summary>
internal static class QueryCount
{
    public const int Max = 500;

    public static int Parse(string? text)
    {
        if (int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var count))
        {
            return Math.Clamp(count, 1, Max);
        }

        // An integer beyond 32 bits is still an integer: clamped by its sign, not read as garbage.
        var digits = text is null ? "" : text.TrimStart('+', '-');
        return digits.Length > 0 && digits.Length >= text!.Length - 1 && digits.All(char.IsAsciiDigit) ? (text[0] == '-' ? 1 : Max) : 1;
    }
}

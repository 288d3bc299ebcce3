using System.Globalization;

namespace Benchmarks.Host.Cli;

/// <summary>A request rate as users write it: <c>20000</c>, <c>20k</c>, <c>1.5M</c> (per second); <c>0</c> is the closed loop.</summary>
internal static class RateParser
{
    public static bool TryParse(string? text, out double rate)
    {
        rate = 0;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        text = text.Trim();
        var scale = char.ToLowerInvariant(text[^1]) switch
        {
            'k' => 1_000.0,
            'm' => 1_000_000.0,
            _ => 1.0,
        };
        var number = scale == 1 ? text : text[..^1];
        if (!double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value) || !double.IsFinite(value))
        {
            return false;
        }

        rate = value * scale;
        return true;
    }

    /// <summary>The rate as an option value: <c>20000</c>, <c>1500.5</c>.</summary>
    public static string Format(double rate) => rate.ToString("0.###", CultureInfo.InvariantCulture);
}

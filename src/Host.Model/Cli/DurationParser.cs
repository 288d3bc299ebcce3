using System.Globalization;

namespace Benchmarks.Host.Cli;

/// <summary>Durations as wrk takes them: <c>15s</c>, <c>500ms</c>, <c>1m</c>, <c>2h</c>; a bare number is seconds.</summary>
internal static class DurationParser
{
    public static bool TryParse(string? text, out TimeSpan duration)
    {
        duration = default;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        var span = text.Trim().AsSpan();
        var unitStart = span.Length;
        while (unitStart > 0 && char.IsAsciiLetter(span[unitStart - 1]))
        {
            unitStart--;
        }

        if (!double.TryParse(span[..unitStart], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value))
        {
            return false;
        }

        double? seconds = span[unitStart..] switch
        {
            "" or "s" => value,
            "ms" => value / 1000,
            "us" => value / 1_000_000,
            "m" => value * 60,
            "h" => value * 3600,
            _ => null,
        };
        if (seconds is null || double.IsInfinity(seconds.Value) || seconds.Value > TimeSpan.MaxValue.TotalSeconds / 2)
        {
            return false;
        }

        duration = TimeSpan.FromSeconds(seconds.Value);
        return true;
    }

    public static TimeSpan Parse(string text) =>
        TryParse(text, out var duration)
            ? duration
            : throw new FormatException($"Invalid duration '{text}': use a number and a unit, such as 15s, 500ms, 1m or 2h.");

    public static string Format(TimeSpan duration) =>
        duration.TotalSeconds >= 1 && duration.TotalSeconds == Math.Floor(duration.TotalSeconds)
            ? $"{duration.TotalSeconds.ToString(CultureInfo.InvariantCulture)}s"
            : $"{duration.TotalMilliseconds.ToString(CultureInfo.InvariantCulture)}ms";
}

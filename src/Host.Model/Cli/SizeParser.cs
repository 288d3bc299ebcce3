using System.Globalization;

namespace Benchmarks.Host.Cli;

/// <summary>
/// A memory size as users write it: <c>512MB</c>, <c>512M</c>, <c>1.5GB</c>, <c>256KB</c> or a byte
/// count. The units are binary, as a container's limit is written (1 MB = 1,048,576 bytes): MB and
/// MiB alike.
/// </summary>
internal static class SizeParser
{
    private const long Kilo = 1024;

    public static bool TryParse(string? text, out long bytes) => TryParse(text, out bytes, out _);

    /// <summary>As <see cref="TryParse(string?, out long)"/>; <paramref name="tooLarge"/> says a size was written but is past any count of bytes.</summary>
    public static bool TryParse(string? text, out long bytes, out bool tooLarge)
    {
        bytes = 0;
        tooLarge = false;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        var trimmed = text.Trim();
        var digits = trimmed.TakeWhile(c => char.IsAsciiDigit(c) || c == '.').Count();
        var unit = trimmed[digits..].Trim().ToUpperInvariant();
        long? scale = unit switch
        {
            "" or "B" => 1,
            "K" or "KB" or "KIB" => Kilo,
            "M" or "MB" or "MIB" => Kilo * Kilo,
            "G" or "GB" or "GIB" => Kilo * Kilo * Kilo,
            _ => null,
        };
        if (scale is null || !double.TryParse(trimmed[..digits], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value))
        {
            return false;
        }

        if (!double.IsFinite(value) || value * scale.Value >= long.MaxValue)
        {
            tooLarge = true;
            return false;
        }

        bytes = (long)Math.Round(value * scale.Value);
        return true;
    }

    /// <summary>The size as an option value, in the largest unit it is a whole or tenth of: <c>512MB</c>, <c>1.5GB</c>, <c>1000B</c>.</summary>
    public static string Format(long bytes)
    {
        foreach (var (unit, scale) in new[] { ("GB", Kilo * Kilo * Kilo), ("MB", Kilo * Kilo), ("KB", Kilo) })
        {
            var value = bytes / (double)scale;
            if (value >= 1 && Math.Abs(value * 10 - Math.Round(value * 10)) < 1e-9)
            {
                return value.ToString("0.#", CultureInfo.InvariantCulture) + unit;
            }
        }

        return bytes.ToString(CultureInfo.InvariantCulture) + "B";
    }
}

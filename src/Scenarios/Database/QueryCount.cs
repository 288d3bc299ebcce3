using System.Globalization;

namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower's <c>queries</c> parameter: an integer clamped to 1..500; missing, empty or unparseable is 1.</summary>
internal static class QueryCount
{
    public const int Max = 500;

    public static int Parse(string? text) =>
        int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var count) ? Math.Clamp(count, 1, Max) : 1;
}

using System.Globalization;

namespace Benchmarks.Host.Measurements;

/// <summary>Applies an <see cref="Operation"/> and spells it as stored (lower case) and as crank writes it.</summary>
internal static class Operations
{
    /// <summary>The operation over <paramref name="values"/> in the order they were taken; NaN when there are none.</summary>
    public static double Apply(this Operation operation, IReadOnlyList<double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (values.Count == 0)
        {
            return double.NaN;
        }

        return operation switch
        {
            Operation.First => values[0],
            Operation.Last => values[^1],
            Operation.Sum => values.Sum(),
            Operation.Max => values.Max(),
            Operation.Min => values.Min(),
            Operation.Median => Median(values),
            _ => values.Average(),
        };
    }

    /// <summary>The stored spelling: <c>avg</c>, <c>max</c>, …</summary>
    public static string Stored(this Operation operation) => operation.ToString().ToLowerInvariant();

    /// <summary>crank's spelling: <c>Avg</c>, <c>Max</c>, …</summary>
    public static string Crank(this Operation operation) => operation.ToString();

    /// <summary>Either spelling, any case; null when it names no operation this tool applies.</summary>
    public static Operation? Parse(string? text) =>
        Enum.TryParse<Operation>(text, ignoreCase: true, out var operation) && !int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out _)
            ? operation
            : null;

    private static double Median(IReadOnlyList<double> values)
    {
        var sorted = values.Order().ToArray();
        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}

namespace Benchmarks.Host.Reports;

/// <summary>How a side's runs split by some state of theirs, in words: what compare's and regressions' verdict lines say.</summary>
internal static class Tally
{
    /// <summary>
    /// Each distinct <paramref name="key"/> of <paramref name="items"/> with how many had it, the most
    /// common first: "server-cpu (3 of 4), gc (1 of 4)"; null when there are none.
    /// </summary>
    public static string? Of<T>(IReadOnlyCollection<T> items, Func<T, string> key)
    {
        ArgumentNullException.ThrowIfNull(items);
        ArgumentNullException.ThrowIfNull(key);
        return items.Count == 0 ? null : string.Join(", ", items.GroupBy(key, StringComparer.Ordinal).OrderByDescending(g => g.Count())
            .ThenBy(g => g.Key, StringComparer.Ordinal).Select(g => $"{g.Key} ({g.Count()} of {items.Count})"));
    }
}

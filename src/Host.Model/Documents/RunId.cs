namespace Benchmarks.Host.Documents;

/// <summary>
/// A run's id and the one short form shown everywhere (the table, <c>results list</c>, the stored
/// file's name, reports): its first 8 characters, which any lookup takes back as a prefix. Ids are
/// random from the first character, so 8 tell runs apart. Runs stored before were time-ordered
/// (a GUID v7: runs of one day share their first characters); theirs is the last 8, also taken back.
/// </summary>
internal static class RunId
{
    public const int ShortLength = 8;

    public static string New() => Guid.NewGuid().ToString("N");

    public static string Short(string id)
    {
        ArgumentNullException.ThrowIfNull(id);
        return id.Length <= ShortLength ? id : IsTimeOrdered(id) ? id[^ShortLength..] : id[..ShortLength];
    }

    /// <summary>True when <paramref name="given"/> names the run: the whole id, a prefix, or a time-ordered id's short form (its end).</summary>
    public static bool Matches(string id, string given)
    {
        ArgumentNullException.ThrowIfNull(id);
        ArgumentNullException.ThrowIfNull(given);
        return id.StartsWith(given, StringComparison.OrdinalIgnoreCase)
            || (IsTimeOrdered(id) && given.Length >= ShortLength && id.EndsWith(given, StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>A GUID v7 in 32 hex digits: its version digit is the 13th.</summary>
    public static bool IsTimeOrdered(string id) => id.Length == 32 && id[12] == '7';
}

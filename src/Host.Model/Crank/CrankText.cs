namespace Benchmarks.Host.Crank;

/// <summary>Text results as crank's table shows them: a row as wide as its longest cell widens the whole table.</summary>
internal static class CrankText
{
    /// <summary>The longest brief, in characters.</summary>
    public const int BriefLength = 80;

    /// <summary>
    /// A line's first clause without its figures: up to its first parenthesis or semicolon, at most
    /// <see cref="BriefLength"/> characters ("the stack: the server kept its CPU 99% busy, mostly in
    /// user mode"); the whole line goes beside it in a result crank keeps out of its table.
    /// </summary>
    public static string Brief(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        var end = new[] { line.IndexOf(" (", StringComparison.Ordinal), line.IndexOf("; ", StringComparison.Ordinal) }.Where(i => i > 0)
            .DefaultIfEmpty(line.Length)
            .Min();
        var brief = line[..end].TrimEnd(' ', ':', ',');
        return brief.Length <= BriefLength ? brief : brief[..(BriefLength - 1)].TrimEnd() + "…";
    }
}

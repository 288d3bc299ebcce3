namespace Benchmarks.Host.Reports;

/// <summary>
/// A table for a terminal or a log: columns padded to their widest cell, two spaces apart, numbers
/// (a column whose every filled cell starts like one) aligned right.
/// </summary>
internal static class PlainTable
{
    public static void Write(TextWriter writer, IReadOnlyList<string> headers, IReadOnlyList<IReadOnlyList<string>> rows)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(headers);
        ArgumentNullException.ThrowIfNull(rows);
        var widths = headers.Select((h, i) => rows.Select(r => i < r.Count ? r[i].Length : 0).Append(h.Length).Max()).ToArray();
        var right = headers.Select((_, i) => rows.Select(r => i < r.Count ? r[i] : "").Where(c => c.Length > 0).ToList() is { Count: > 0 } cells
            && cells.All(Numeric)).ToArray();
        writer.WriteLine(Line(headers, widths, right));
        foreach (var row in rows)
        {
            writer.WriteLine(Line(row, widths, right));
        }
    }

    /// <summary>Whether a cell reads as a number, a change or an interval (<c>12,345</c>, <c>+3.1%</c>, <c>[-2%, +4%]</c>, <c>61 / 39</c>).</summary>
    public static bool Numeric(string cell)
    {
        ArgumentNullException.ThrowIfNull(cell);
        return cell.Length > 0
            && (char.IsAsciiDigit(cell[0]) || (cell[0] is '-' or '+' or '[' && cell.Length > 1 && (char.IsAsciiDigit(cell[1]) || cell[1] is '-' or '+')))
                || cell == "n/a";
    }

    private static string Line(IReadOnlyList<string> cells, int[] widths, bool[] right) =>
        string.Join("  ", widths.Select((w, i) => i < cells.Count ? (right[i] ? cells[i].PadLeft(w) : cells[i].PadRight(w)) : new string(' ', w))).TrimEnd();
}

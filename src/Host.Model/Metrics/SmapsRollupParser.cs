using System.Globalization;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Parses Linux's <c>/proc/&lt;pid&gt;/smaps_rollup</c> (Linux 4.14 and later) for the process's
/// private working set: its resident pages that no other process maps (<c>Private_Clean</c>,
/// <c>Private_Dirty</c> and <c>Private_Hugetlb</c>) — heap, stacks, generated code and written data,
/// not the shared libraries and files another process could map too. Windows calls the same
/// figure the private working set.
/// </summary>
internal static class SmapsRollupParser
{
    private static readonly string[] s_private = ["Private_Clean:", "Private_Dirty:", "Private_Hugetlb:"];

    /// <summary>The private resident bytes, or null when the text has none of the private lines (not an smaps_rollup).</summary>
    public static long? PrivateBytes(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        long? kilobytes = null;
        foreach (var line in text.AsSpan().EnumerateLines())
        {
            foreach (var name in s_private)
            {
                if (line.StartsWith(name, StringComparison.Ordinal))
                {
                    // "Private_Dirty:      1234 kB"
                    var value = line[name.Length..].Trim();
                    var space = value.IndexOf(' ');
                    kilobytes = (kilobytes ?? 0) + long.Parse(space < 0 ? value : value[..space], NumberStyles.None, CultureInfo.InvariantCulture);
                }
            }
        }

        return kilobytes * 1024;
    }
}

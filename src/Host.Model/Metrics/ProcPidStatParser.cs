using System.Globalization;

namespace Benchmarks.Host.Metrics;

/// <summary>Parses Linux's <c>/proc/&lt;pid&gt;/stat</c>: user and system time, resident set size.</summary>
internal static class ProcPidStatParser
{
    public static ProcessCpuTimes Parse(string text, double ticksPerSecond, long pageSize)
    {
        // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
        var close = text.LastIndexOf(')');
        if (close < 0)
        {
            throw new FormatException("/proc/<pid>/stat has no command name.");
        }

        // Fields from 3 on: state(3) ... utime(14) stime(15) ... rss(24).
        var rest = text.AsSpan(close + 1);
        Span<Range> ranges = stackalloc Range[23];
        var count = rest.Trim().Split(ranges, ' ', StringSplitOptions.RemoveEmptyEntries);
        if (count < 22)
        {
            throw new FormatException($"/proc/<pid>/stat has {count + 2} fields; at least 24 are needed.");
        }

        var fields = rest.Trim();
        var utime = long.Parse(fields[ranges[14 - 3]], NumberStyles.None, CultureInfo.InvariantCulture);
        var stime = long.Parse(fields[ranges[15 - 3]], NumberStyles.None, CultureInfo.InvariantCulture);
        var rss = long.Parse(fields[ranges[24 - 3]], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
        return new ProcessCpuTimes(utime / ticksPerSecond, stime / ticksPerSecond, Math.Max(0, rss) * pageSize);
    }
}

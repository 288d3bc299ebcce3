using System.Globalization;

namespace Benchmarks.Host.Metrics;

/// <summary>Parses the aggregate <c>cpu</c> line of Linux's <c>/proc/stat</c>.</summary>
internal static class ProcStatParser
{
    /// <param name="text">The file's text.</param>
    /// <param name="ticksPerSecond">USER_HZ, <c>sysconf(_SC_CLK_TCK)</c>.</param>
    public static MachineCpuTimes Parse(string text, double ticksPerSecond)
    {
        foreach (var line in text.AsSpan().EnumerateLines())
        {
            if (!line.StartsWith("cpu ", StringComparison.Ordinal))
            {
                continue;
            }

            // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
            Span<long> fields = stackalloc long[8];
            var index = 0;
            foreach (var range in line[3..].Split(' '))
            {
                var token = line[3..][range];
                if (token.IsEmpty)
                {
                    continue;
                }

                if (index == fields.Length)
                {
                    break;
                }

                fields[index++] = long.Parse(token, NumberStyles.None, CultureInfo.InvariantCulture);
            }

            if (index < 4)
            {
                throw new FormatException("The cpu line of /proc/stat has fewer than four fields.");
            }

            var user = fields[0] + fields[1];
            var kernel = fields[2] + fields[5] + fields[6];
            var idle = fields[3] + fields[4];
            var steal = fields[7];
            return new MachineCpuTimes(user / ticksPerSecond, kernel / ticksPerSecond, idle / ticksPerSecond, steal / ticksPerSecond);
        }

        throw new FormatException("/proc/stat has no aggregate cpu line.");
    }
}

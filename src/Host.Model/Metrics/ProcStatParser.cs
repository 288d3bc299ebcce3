using System.Globalization;

namespace Benchmarks.Host.Metrics;

/// <summary>Parses the aggregate <c>cpu</c> line of Linux's <c>/proc/stat</c>, and the idle time of chosen <c>cpuN</c> lines.</summary>
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

    /// <summary>Idle and I/O-wait seconds summed over <paramref name="cpus"/> (their <c>cpuN</c> lines); null when one of them has no line.</summary>
    public static double? ParseIdle(string text, double ticksPerSecond, IReadOnlyList<int> cpus)
    {
        ArgumentNullException.ThrowIfNull(cpus);
        long idle = 0;
        var found = 0;
        foreach (var line in text.AsSpan().EnumerateLines())
        {
            // cpuN user nice system idle iowait ...
            if (line.Length < 4 || !line.StartsWith("cpu", StringComparison.Ordinal) || !char.IsAsciiDigit(line[3]))
            {
                continue;
            }

            var rest = line[3..];
            var space = rest.IndexOf(' ');
            if (space < 0 || !int.TryParse(rest[..space], NumberStyles.None, CultureInfo.InvariantCulture, out var cpu) || !cpus.Contains(cpu))
            {
                continue;
            }

            var index = 0;
            foreach (var range in rest[space..].Split(' '))
            {
                var token = rest[space..][range];
                if (token.IsEmpty)
                {
                    continue;
                }

                if (index is 3 or 4)
                {
                    idle += long.Parse(token, NumberStyles.None, CultureInfo.InvariantCulture);
                }

                if (++index > 4)
                {
                    break;
                }
            }

            found++;
        }

        return found == cpus.Distinct().Count() ? idle / ticksPerSecond : null;
    }
}

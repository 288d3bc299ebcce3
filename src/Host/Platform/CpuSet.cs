using System.Globalization;

namespace Benchmarks.Host.Platform;

/// <summary>CPU lists as users write them (<c>0</c>, <c>1-3</c>, <c>0,2</c>).</summary>
internal static class CpuSet
{
    public static IReadOnlyList<int> Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var cpus = new SortedSet<int>();
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var dash = part.IndexOf('-', StringComparison.Ordinal);
            if (dash < 0)
            {
                cpus.Add(ParseCpu(part, text));
                continue;
            }

            var first = ParseCpu(part[..dash], text);
            var last = ParseCpu(part[(dash + 1)..], text);
            if (last < first)
            {
                throw new FormatException($"Invalid CPU list '{text}': range {part} is backwards.");
            }

            for (var cpu = first; cpu <= last; cpu++)
            {
                cpus.Add(cpu);
            }
        }

        if (cpus.Count == 0)
        {
            throw new FormatException($"Invalid CPU list '{text}'.");
        }

        return [.. cpus];
    }

    public static string Format(IReadOnlyList<int> cpus) => string.Join(',', cpus);

    public static nint ToMask(IReadOnlyList<int> cpus)
    {
        long mask = 0;
        foreach (var cpu in cpus)
        {
            if (cpu is < 0 or > 63)
            {
                throw new ArgumentOutOfRangeException(nameof(cpus), $"CPU {cpu} is outside 0-63.");
            }

            mask |= 1L << cpu;
        }

        return (nint)mask;
    }

    private static int ParseCpu(string token, string text)
    {
        if (!int.TryParse(token, NumberStyles.None, CultureInfo.InvariantCulture, out var cpu) || cpu >= Environment.ProcessorCount)
        {
            throw new FormatException($"Invalid CPU list '{text}': '{token}' is not a CPU of this machine (0-{Environment.ProcessorCount - 1}).");
        }

        return cpu;
    }
}

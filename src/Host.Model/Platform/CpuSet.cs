using System.Globalization;

namespace Benchmarks.Host.Platform;

/// <summary>CPU lists as users write them (<c>0</c>, <c>1-3</c>, <c>0,2</c>).</summary>
internal static class CpuSet
{
    /// <param name="text">Such as <c>0</c>, <c>0-3</c> or <c>0,2,4-5</c>.</param>
    /// <param name="cores">The CPUs of the machine the list is for (another machine's, for a stored run); this machine's when null.</param>
    public static IReadOnlyList<int> Parse(string text, int? cores = null)
    {
        ArgumentNullException.ThrowIfNull(text);
        var count = cores ?? Environment.ProcessorCount;
        var cpus = new SortedSet<int>();
        foreach (var part in text.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var dash = part.IndexOf('-', StringComparison.Ordinal);
            if (dash < 0)
            {
                cpus.Add(ParseCpu(part, text, count));
                continue;
            }

            var first = ParseCpu(part[..dash], text, count);
            var last = ParseCpu(part[(dash + 1)..], text, count);
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

    private static int ParseCpu(string token, string text, int cores)
    {
        if (!int.TryParse(token, NumberStyles.None, CultureInfo.InvariantCulture, out var cpu) || cpu >= cores)
        {
            throw new FormatException($"Invalid CPU list '{text}': '{token}' is not a CPU of this machine (0-{cores - 1}).");
        }

        return cpu;
    }
}

namespace Benchmarks.Host.Metrics;

/// <summary>Reads the processor's model from Linux's <c>/proc/cpuinfo</c>.</summary>
internal static class CpuInfoParser
{
    /// <summary>The first <c>model name</c> (x86) or <c>Model</c>/<c>Hardware</c> (ARM) value; null when there is none.</summary>
    public static string? ModelName(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        string? fallback = null;
        foreach (var line in text.AsSpan().EnumerateLines())
        {
            var colon = line.IndexOf(':');
            if (colon < 0)
            {
                continue;
            }

            var key = line[..colon].Trim();
            var value = line[(colon + 1)..].Trim();
            if (value.IsEmpty)
            {
                continue;
            }

            if (key.Equals("model name", StringComparison.OrdinalIgnoreCase))
            {
                return value.ToString();
            }

            if (fallback is null && (key.Equals("Model", StringComparison.Ordinal) || key.Equals("Hardware", StringComparison.Ordinal)))
            {
                fallback = value.ToString();
            }
        }

        return fallback;
    }
}

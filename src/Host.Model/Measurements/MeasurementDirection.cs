namespace Benchmarks.Host.Measurements;

/// <summary>Which way is better for a measurement this tool does not describe (crank's, a plugin's).</summary>
internal static class MeasurementDirection
{
    public static bool? Infer(string name)
    {
        var n = name.ToLowerInvariant();
        if (n.Contains("rps", StringComparison.Ordinal)
            || n.Contains("/rate", StringComparison.Ordinal)
            || n.Contains("throughput", StringComparison.Ordinal)
            || n.Contains("requests/sec", StringComparison.Ordinal))
        {
            return true;
        }

        if (n.Contains("latency", StringComparison.Ordinal) || n.Contains("rtt", StringComparison.Ordinal) || n.Contains("error", StringComparison.Ordinal)
            || n.Contains("bad", StringComparison.Ordinal)
                || n.Contains("start-time", StringComparison.Ordinal)
                || n.Contains("build-time", StringComparison.Ordinal)
            || n.Contains("working-set", StringComparison.Ordinal) || n.Contains("memory", StringComparison.Ordinal))
        {
            return false;
        }

        return null;
    }
}

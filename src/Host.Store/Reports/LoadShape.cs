using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// What makes runs of one scenario and server like enough to follow as one series: the load's kind
/// and every setting that changes what is measured (wire and protocol, TLS, streams, connections,
/// pipelining, rate, limits, pinning, proxy, database, tracing or profiling, server options), and
/// the machine. Only what cannot change the figures' meaning is left out: how long the run warmed
/// up and measured, its timeout, its iterations, the URL's port and crank's free-form properties.
/// <c>history</c>, <c>regressions</c> and <c>compare</c> follow like with like and say what they grouped by.
/// </summary>
internal static class LoadShape
{
    /// <summary>Listed first, in this order; the other settings follow by name.</summary>
    private static readonly string[] s_first = ["connections", "pipeline", "rate", "keep-alive", "proxy", "tcp-mode", "tcp-protocol", "window", "message-size"];

    private static readonly HashSet<string> s_notDefining = new(["url", "duration", "warmup", "timeout", "iterations"], StringComparer.Ordinal);

    /// <summary>Whether a run parameter sets what a series follows (<c>protocol</c>: yes; <c>duration</c>: no).</summary>
    public static bool Defines(string parameter) =>
        !s_notDefining.Contains(parameter) && !parameter.StartsWith("crank/", StringComparison.Ordinal);

    /// <summary>The shape in words, such as <c>http load, connections 256, pipeline 16, proxy none, protocol h2, on bench-1 (2 cores)</c>.</summary>
    public static string Of(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var names = s_first.Where(run.Parameters.ContainsKey)
            .Concat(run.Parameters.Keys.Where(k => Defines(k) && Array.IndexOf(s_first, k) < 0));
        return string.Join(", ",
            [$"{run.Load} load", .. names.Select(p => $"{p} {Value(p, run.Parameters[p])}"),
             $"on {run.Environment.MachineName} ({run.Environment.Cores} cores)"]);
    }

    /// <summary>A setting as the series knows it: a private database by its version, not by the process id and port it had that time.</summary>
    private static string Value(string parameter, string value) =>
        parameter == "database" && value.StartsWith("private ", StringComparison.Ordinal) && value.IndexOf(" (", StringComparison.Ordinal) is > 0 and var cut
            ? value[..cut]
            : value;

    /// <summary>The shape in a list's column: <c>c256 p16</c>, <c>c16 @2000/s</c>, <c>c2000 w4</c>, <c>c256 h2 cpu0.5</c>.</summary>
    public static string Brief(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var p = run.Parameters;
        var parts = new List<string>();
        if (p.TryGetValue("connections", out var connections))
        {
            parts.Add("c" + connections);
        }

        if (p.TryGetValue("pipeline", out var pipeline) && pipeline != "1" && !p.ContainsKey("tcp-mode"))
        {
            parts.Add("p" + pipeline);
        }

        if (p.TryGetValue("window", out var window) && window != "1")
        {
            parts.Add("w" + window);
        }

        if (p.TryGetValue("rate", out var rate))
        {
            parts.Add($"@{rate}/s");
        }

        // What else makes it its own series, in a word each: h2, https, a quota, a proxy, a trace.
        if (p.TryGetValue("protocol", out var protocol))
        {
            parts.Add(protocol);
        }

        if (p.TryGetValue(Measurements.LimitMeasures.CpuLimitParameter, out var cpu))
        {
            parts.Add($"cpu{cpu}");
        }

        if (p.TryGetValue(Measurements.LimitMeasures.MemoryLimitParameter, out var memory))
        {
            parts.Add($"mem{memory}");
        }

        if (p.TryGetValue("proxy", out var proxy) && proxy != "none")
        {
            parts.Add(proxy);
        }

        if (p.GetValueOrDefault("server-cpus") == "any")
        {
            parts.Add("unpinned");
        }

        if (p.ContainsKey("trace") || p.ContainsKey("profiler"))
        {
            parts.Add("traced");
        }

        return string.Join(' ', parts);
    }
}

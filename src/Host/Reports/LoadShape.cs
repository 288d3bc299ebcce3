using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>
/// What makes runs of one scenario and server like enough to follow as one series: the load
/// (its kind and shape: connections, pipelining, rate, protocol settings, proxy) and the machine.
/// A history compares like with like and says what it grouped by.
/// </summary>
internal static class LoadShape
{
    private static readonly string[] s_parameters = ["connections", "pipeline", "rate", "keep-alive", "proxy", "tcp-mode", "tcp-protocol", "window", "message-size"];

    /// <summary>The shape in words, such as <c>http load, connections 256, pipeline 16, proxy none, on bench-1 (2 cores)</c>.</summary>
    public static string Of(RunDocument run)
    {
        ArgumentNullException.ThrowIfNull(run);
        var parameters = s_parameters.Where(run.Parameters.ContainsKey).Select(p => $"{p} {run.Parameters[p]}");
        return string.Join(", ", [$"{run.Load} load", .. parameters, $"on {run.Environment.MachineName} ({run.Environment.Cores} cores)"]);
    }

    /// <summary>The shape in a list's column: <c>c256 p16</c>, <c>c16 @2000/s</c>, <c>c2000 w4</c>.</summary>
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

        return string.Join(' ', parts);
    }
}

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
}

using System.Globalization;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>One thing a set of runs varies in (server, proxy, connections, …): its name, how to read it from a run, and whether it is a number.</summary>
internal sealed record MatrixAxis(string Name, Func<RunDocument, string> Read, bool Numeric)
{
    private static readonly MatrixAxis[] s_candidates =
    [
        new("scenario", r => r.Scenario, false),
        new("server", r => r.Server, false),
        new("proxy", r => r.Parameters.GetValueOrDefault("proxy") ?? "none", false),
        new("keep-alive", r => r.Parameters.GetValueOrDefault("keep-alive") ?? "true", false),
        new("tcp-mode", r => r.Parameters.GetValueOrDefault("tcp-mode") ?? "", false),
        new("os", r => r.Environment.Os, false),
        new("pipeline", r => r.Parameters.GetValueOrDefault("pipeline") ?? "1", true),
        new("connections", r => r.Parameters.GetValueOrDefault("connections") ?? "", true),
        new("requested rate", r => r.Parameters.GetValueOrDefault("rate") ?? "closed", true),
    ];

    /// <summary>The axes along which <paramref name="runs"/> differ, in a fixed order (categories first, numbers last).</summary>
    public static IReadOnlyList<MatrixAxis> Varying(IReadOnlyList<RunDocument> runs) =>
        [.. s_candidates.Where(a => runs.Select(a.Read).Distinct(StringComparer.Ordinal).Count() > 1)];

    public double Number(RunDocument run) => double.TryParse(Read(run), NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : double.NaN;
}

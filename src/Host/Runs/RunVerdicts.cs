using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>The verdicts a finished run carries: whether each window was steady (<see cref="SteadinessRule"/>) and what limited it (<see cref="OpenModelRule"/>, <see cref="BottleneckRule"/>, and inside a .NET server <see cref="RuntimeRule"/>).</summary>
internal static class RunVerdicts
{
    /// <summary>Whether the window was steady, and what limited the run.</summary>
    public static void Judge(RunDocument document)
    {
        // Each iteration's window is judged on its own (iterations differ by the machine's noise, not by a trend); the first unsteady one is the run's.
        foreach (var window in document.Samples.Where(s => s.Values.ContainsKey(SystemMeasures.LoadRate.Name)).GroupBy(s => s.Iteration))
        {
            document.Window = SteadinessRule.Check(SystemMeasures.LoadRate.Name, [.. window.Select(s => s.Values[SystemMeasures.LoadRate.Name])]);
            document.Window.Iteration = window.Key;
            if (document.Window.Verdict != "steady")
            {
                break;
            }
        }

        // Open model: a rate not met comes first, with the machine's verdict after it.
        var limit = BottleneckRule.Judge(document);
        limit = OpenModelRule.Judge(document) is { } shortfall ? (limit is null ? shortfall : $"{shortfall}; {limit}") : limit;

        // What inside the runtime held the server back comes after what limited the machine; when nothing saturated,
        // it is what held the load back, so it comes first and the advice to load harder goes.
        document.Bottleneck = RuntimeRule.Judge(document) is not { } inside ? limit
            : limit is null ? $"inside the runtime: {inside}"
            : limit.StartsWith("nothing saturated", StringComparison.Ordinal) ? $"inside the runtime: {inside}; {limit.Replace(BottleneckRule.ConcurrencyAdvice, "", StringComparison.Ordinal)}"
            : $"{limit}; inside the runtime: {inside}";

        // Over TLS with a trace: how much of the server's running code was TLS.
        if (TlsShare(document) is { } tls)
        {
            document.Bottleneck = document.Bottleneck is null ? tls : $"{document.Bottleneck}; {tls}";
        }
    }

    /// <summary>For a run over TLS whose server was traced: the share of its samples in TLS, in a clause.</summary>
    private static string? TlsShare(RunDocument document) =>
        document.Parameters.TryGetValue("protocol", out var protocol) && protocol is ("https" or "h2") && document.Trace is { Samples: > 0 } trace
            ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"TLS: {trace.TlsPercent:0}% of the server's traced samples were in TLS (SslStream and its calls into the platform's crypto)")
            : null;
}

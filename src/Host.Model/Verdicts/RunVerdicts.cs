using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// The verdicts a finished run carries: whether each window was steady
/// (<see cref="SteadinessRule"/>) and what limited it (<see cref="OpenModelRule"/>,
/// <see cref="BottleneckRule"/>, and inside a .NET server <see cref="RuntimeRule"/>).
/// </summary>
internal static class RunVerdicts
{
    /// <summary>
    /// Whether the window was steady, and what limited the run: its causes
    /// (<see cref="RunDocument.Causes"/>) and their line (<see cref="RunDocument.Bottleneck"/>).
    /// </summary>
    public static void Judge(RunDocument document)
    {
        // Each iteration's window is judged on its own (iterations differ by the machine's noise, not by a trend); the first unsteady one is the run's.
        foreach (var window in document.Samples.Where(s => s.Values.ContainsKey(SystemMeasures.LoadRate.Name)).GroupBy(s => s.Iteration))
        {
            document.Window = SteadinessRule.Check(SystemMeasures.LoadRate.Name, [.. window.Select(s => s.Values[SystemMeasures.LoadRate.Name])]);
            document.Window.Iteration = window.Key;
            var jit = window.Take(SteadinessRule.JitQuietSeconds).Where(s => s.Values.ContainsKey(SystemMeasures.Jit.Name)).ToList();
            document.Window.JitMilliseconds = jit.Count == 0 ? null : jit.Sum(s => s.Values[SystemMeasures.Jit.Name]);
            var warmSeconds = document.WarmupSamples.Where(s => (s.Iteration == window.Key
                || (s.Iteration is null && window.Key is null or 1))
                    && s.Values.ContainsKey(SystemMeasures.LoadRate.Name)).ToList();
            var warm = warmSeconds.Select(s => s.Values[SystemMeasures.LoadRate.Name]).ToList();
            if (BestLevel(warm) is { } best && best > 0)
            {
                document.Window.WarmupBestLevel = best;
                var level = Benchmarks.Load.Statistics.Trend.Level([.. window.Select(s => s.Values[SystemMeasures.LoadRate.Name])]);
                document.Window.FromWarmupPercent = (level / best - 1) * 100;
            }

            // What moved the rate: inside a window that drifted, or from the warm-up's level down to the window's.
            var seconds = window.ToList();
            var compiling = document.Window.JitMilliseconds >= SteadinessRule.JitQuietMilliseconds;
            document.Window.Cause = document.Window switch
            {
                { Verdict: "not steady" or "noisy", StalledSeconds: 0 } => DriftRule.InWindow(document, seconds, compiling),
                { Verdict: "steady", FromWarmupPercent: <= -Benchmarks.Load.Statistics.Trend.DriftLimitPercent } =>
                    DriftRule.FromWarmup(document, warmSeconds, seconds, compiling),
                _ => null,
            };
            if (document.Window.Verdict != "steady")
            {
                break;
            }
        }

        document.Causes = Causes(document);
        document.Bottleneck = VerdictLine.Render(document.Causes);
    }

    /// <summary>Every cause the rules find, in the order the line says them: a rate not met, the machine's, then the runtime's, then notes.</summary>
    public static List<VerdictCause> Causes(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var causes = new List<VerdictCause>();
        if (OpenModelRule.Judge(document) is { } shortfall)
        {
            causes.Add(new VerdictCause { Kind = CauseKinds.RateNotMet.Name, Text = shortfall });
        }

        causes.AddRange(BottleneckRule.Judge(document));
        causes.AddRange(RuntimeRule.Judge(document));
        if (TlsShare(document) is { } tls)
        {
            causes.Add(new VerdictCause { Kind = CauseKinds.Tls.Name, Text = tls });
        }

        return causes;
    }

    /// <summary>
    /// The highest median of <see cref="DefaultLoad.SteadySeconds"/> consecutive seconds, as the
    /// warm-up judges its level; null when it had fewer.
    /// </summary>
    private static double? BestLevel(List<double> warmup)
    {
        var n = Benchmarks.Load.DefaultLoad.SteadySeconds;
        return warmup.Count < n ? null : Enumerable.Range(0, warmup.Count - n + 1).Max(i => Benchmarks.Load.Statistics.Trend.Level(warmup.GetRange(i, n)));
    }

    /// <summary>For a run over TLS whose server was traced: the share of its samples in TLS, in a clause.</summary>
    private static string? TlsShare(RunDocument document) =>
        document.Parameters.TryGetValue("protocol", out var protocol) && protocol is ("https" or "h2") && document.Trace is { Samples: > 0 } trace
            ? string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"TLS: {trace.TlsPercent:0}% of the server's working samples were in TLS (SslStream and its calls into the platform's crypto)")
            : null;
}

using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Verdicts;

/// <summary>A job's verdict (<see cref="JobVerdict"/>): its <c>bound:</c> line, its causes, and the seconds judged.</summary>
internal sealed record JobVerdictResult(string Line, List<VerdictCause> Causes, LoadedSpan Span)
{
    /// <summary>The causes' kinds, comma-separated, as <see cref="JobVerdict.Kinds"/> holds them.</summary>
    public string Kinds => string.Join(", ", Causes.Select(c => c.Kind).Distinct(StringComparer.Ordinal));
}

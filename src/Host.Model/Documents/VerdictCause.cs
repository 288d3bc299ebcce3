namespace Benchmarks.Host.Documents;

/// <summary>
/// One cause of what limited a run, as a rule found it: its kind (a name of the causes catalog, <c>Verdicts/CauseKinds</c>),
/// the clause the <c>bound:</c> line says, the figures it rests on and how sure the rule is.
/// A run's verdict is the list of them; its one line is their rendering (<see cref="RunDocument.Bottleneck"/>).
/// </summary>
public sealed class VerdictCause
{
    /// <summary>What limited the run: <c>server-cpu</c>, <c>wire</c>, <c>thread-pool-starvation</c>, … (<c>Verdicts/CauseKinds</c>).</summary>
    public string Kind { get; set; } = "";

    /// <summary>The clause as the <c>bound:</c> line says it, figures included.</summary>
    public string Text { get; set; } = "";

    /// <summary>What to do about it, said after the clause; left out when another cause explains it (a fault inside the runtime explains idle CPUs).</summary>
    public string? Advice { get; set; }

    /// <summary>The figures the rule read, by measurement name (or a name of its own for a derived figure).</summary>
    public SortedDictionary<string, double> Evidence { get; set; } = new(StringComparer.Ordinal);

    /// <summary><c>sure</c> when the figures are past the rule's threshold and agree; <c>unclear</c> when they are weak or conflict.</summary>
    public string Certainty { get; set; } = Sure;

    /// <summary>The figures are past the rule's threshold and agree with each other.</summary>
    public const string Sure = "sure";

    /// <summary>The figures point at the cause but are weak or conflict: the line says so.</summary>
    public const string Unclear = "unclear";
}

namespace Benchmarks.Host.Documents;

/// <summary>One method's share of a trace's samples.</summary>
public sealed class HotMethod
{
    /// <summary>Namespace, type and method, without the signature.</summary>
    public string Name { get; set; } = "";

    /// <summary>Share of the samples with this method at the top of the stack (%).</summary>
    public double ExclusivePercent { get; set; }

    /// <summary>Share of the samples with this method anywhere on the stack (%).</summary>
    public double InclusivePercent { get; set; }
}

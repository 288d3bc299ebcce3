namespace Benchmarks.Host.Documents;

/// <summary>Values sampled during one second of the measured window.</summary>
public sealed class RunSample
{
    /// <summary>Seconds since the measured window began.</summary>
    public double Time { get; set; }

    /// <summary>The iteration the second belongs to (1-based), when the run measured several.</summary>
    public int? Iteration { get; set; }

    public SortedDictionary<string, double> Values { get; set; } = new(StringComparer.Ordinal);
}

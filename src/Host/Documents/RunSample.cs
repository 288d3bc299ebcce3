namespace Benchmarks.Host.Documents;

/// <summary>Values sampled during one second of the measured window.</summary>
public sealed class RunSample
{
    /// <summary>Seconds since the measured window began.</summary>
    public double Time { get; set; }

    public SortedDictionary<string, double> Values { get; set; } = new(StringComparer.Ordinal);
}

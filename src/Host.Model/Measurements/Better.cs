namespace Benchmarks.Host.Measurements;

/// <summary>Which way a measurement improves, for comparisons and regression checks.</summary>
internal enum Better
{
    Neither,
    Higher,
    Lower,
}

namespace Benchmarks.Host.Verdicts;

/// <summary>One interval's figures of an agent's job, stamped with when the interval ended.</summary>
internal sealed record JobSample(DateTime At, IReadOnlyDictionary<string, double> Values);

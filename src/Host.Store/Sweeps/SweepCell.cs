namespace Benchmarks.Host.Sweeps;

/// <summary>One run of a sweep: its command line and the value it takes on each axis.</summary>
internal sealed record SweepCell(IReadOnlyList<string> Arguments, IReadOnlyDictionary<string, string> Values);

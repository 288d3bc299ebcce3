namespace Benchmarks.Host.Metrics;

/// <summary>
/// A .NET process's counters at one instant, by measurement name: the running totals of the
/// incrementing ones (GCs, bytes allocated, lock contentions, work items, exceptions) and the last
/// reported value of the others (heap size, thread count, queue length).
/// </summary>
internal sealed record RuntimeCounterSnapshot(IReadOnlyDictionary<string, double> Totals, IReadOnlyDictionary<string, double> Gauges);

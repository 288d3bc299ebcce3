namespace Benchmarks.Host.Metrics;

/// <summary>Bytes an interface has received and sent since it came up.</summary>
internal readonly record struct NetworkCounters(long RxBytes, long TxBytes);

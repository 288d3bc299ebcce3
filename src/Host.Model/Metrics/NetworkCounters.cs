namespace Benchmarks.Host.Metrics;

/// <summary>
/// What an interface has received and sent since it came up: bytes, packets, and the packets it
/// dropped either way (a full queue or ring, a policer's drops where the driver counts them).
/// </summary>
internal readonly record struct NetworkCounters(long RxBytes, long TxBytes, long RxPackets = 0, long TxPackets = 0, long Dropped = 0);

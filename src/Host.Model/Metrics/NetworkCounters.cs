namespace Benchmarks.Host.Metrics;

/// <summary>
/// What an interface has received and sent since it came up: bytes, packets, the packets it
/// dropped either way (a full queue or ring, a policer's drops where the driver counts them), and
/// those it received or sent with errors (bad frames, CRC, the NIC's or driver's faults).
/// </summary>
internal readonly record struct NetworkCounters(long RxBytes, long TxBytes, long RxPackets = 0, long TxPackets = 0, long Dropped = 0, long Errors = 0);

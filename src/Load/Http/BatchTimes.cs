namespace Benchmarks.Load.Http;

/// <summary>
/// A batch's clock (Stopwatch ticks): what its latency is timed from (the due time in the open
/// model, else the send), its send, and this read.
/// </summary>
internal readonly record struct BatchTimes(long TimedFrom, long SentAt, long Now);

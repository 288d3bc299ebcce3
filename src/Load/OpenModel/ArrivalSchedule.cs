using System.Diagnostics;

namespace Benchmarks.Load.OpenModel;

/// <summary>
/// The open model's timeline: request <c>i</c> is due at <c>start + i / rate</c>, whatever the
/// server does. A pacer thread releases each request when it falls due; a free connection takes
/// the oldest released one and learns its due time, from which its latency is measured
/// (corrected for coordinated omission). When every connection is busy, released requests wait:
/// they are neither skipped nor sent early, and the wait is part of their latency. Only two
/// counters track the queue, so memory stays the same whatever the rate and the backlog.
/// </summary>
public sealed class ArrivalSchedule : IDisposable
{
    private readonly double _ticksPerRequest;
    private readonly SemaphoreSlim _released = new(0, int.MaxValue);
    private readonly Thread _pacer;
    private readonly int _wakeOnStop;
    private long _start;
    private long _releasedCount;
    private long _taken;
    private volatile bool _stopped;

    /// <param name="rate">Requests per second, over all connections.</param>
    /// <param name="takers">Connections that may be waiting for a request (all are woken at the stop).</param>
    public ArrivalSchedule(double rate, int takers)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rate);
        Rate = rate;
        _ticksPerRequest = Stopwatch.Frequency / rate;
        _wakeOnStop = Math.Max(1, takers);
        _pacer = new Thread(Pace) { IsBackground = true, Name = "arrival schedule", Priority = ThreadPriority.AboveNormal };
    }

    public double Rate { get; }

    /// <summary>Requests due so far.</summary>
    public long Released => Volatile.Read(ref _releasedCount);

    /// <summary>Requests a connection has taken to send.</summary>
    public long Taken => Volatile.Read(ref _taken);

    /// <summary>Requests due but not yet taken: every connection was busy.</summary>
    public long Backlog => Math.Max(0, Released - Taken);

    /// <summary>The due time (Stopwatch ticks) of request <paramref name="index"/>.</summary>
    public long DueAt(long index) => _start + (long)(index * _ticksPerRequest);

    /// <summary>How many requests fall due from <paramref name="from"/> to <paramref name="to"/> (Stopwatch ticks).</summary>
    public long DueBetween(long from, long to) => Math.Max(0, IndexAt(to) - IndexAt(from));

    public void Start()
    {
        _start = Stopwatch.GetTimestamp();
        _pacer.Start();
    }

    /// <summary>
    /// Waits for the next due request and returns its due time (Stopwatch ticks), or -1 once the
    /// schedule is stopped.
    /// </summary>
    public async ValueTask<long> NextAsync()
    {
        await _released.WaitAsync().ConfigureAwait(false);
        if (_stopped)
        {
            return -1;
        }

        var index = Interlocked.Increment(ref _taken) - 1;
        return DueAt(index);
    }

    /// <summary>Stops releasing requests and wakes every waiting connection.</summary>
    public void Stop()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        _released.Release(_wakeOnStop);
    }

    public void Dispose()
    {
        Stop();
        if (_pacer.IsAlive)
        {
            _pacer.Join();
        }

        _released.Dispose();
    }

    private long IndexAt(long timestamp) => timestamp < _start ? 0 : (long)((timestamp - _start) / _ticksPerRequest) + 1;

    private void Pace()
    {
        // Release what fell due, then sleep until the next request is due: about a millisecond
        // at most, so a request is released within ~1 ms of its time (the send's lateness is
        // measured and counted, never hidden).
        while (!_stopped)
        {
            var due = IndexAt(Stopwatch.GetTimestamp());
            var fresh = due - _releasedCount;
            if (fresh > 0)
            {
                Volatile.Write(ref _releasedCount, due);
                while (fresh > 0 && !_stopped)
                {
                    var chunk = (int)Math.Min(fresh, int.MaxValue / 2);
                    try
                    {
                        _released.Release(chunk);
                    }
                    catch (SemaphoreFullException)
                    {
                        // More than a billion requests waiting: the backlog is counted, not queued further.
                    }

                    fresh -= chunk;
                }
            }

            var untilNext = (DueAt(due) - Stopwatch.GetTimestamp()) * 1000 / Stopwatch.Frequency;
            Thread.Sleep((int)Math.Clamp(untilNext, 1, 50));
        }
    }
}

using System.Collections.Concurrent;

namespace Benchmarks.Load.OpenModel;

/// <summary>
/// The open model's timeline: request <c>i</c> is due at <c>start + i / rate</c>, whatever the
/// server does. A request is released by the clock itself the moment it falls due (no thread has
/// to mark it), and a free connection takes the oldest released one and learns its due time, from
/// which its latency is measured (corrected for coordinated omission). When every connection is
/// busy, released requests wait: they are neither skipped nor sent early, and the wait is part of
/// their latency. Engines that poll (the epoll workers) take due requests themselves and sleep on
/// a timer set to <see cref="NextDue"/>; engines on the thread pool park their connections, and a
/// pacer thread hands each parked one the next request inline, with no hop through the thread
/// pool. Only two counters track the queue, so memory stays the same whatever the rate and the
/// backlog.
/// </summary>
public sealed class ArrivalSchedule : IDisposable
{
    private readonly TimeProvider _time;
    private readonly double _ticksPerRequest;
    private readonly ConcurrentQueue<ScheduleWaiter> _parked = new();
    private readonly Thread _pacer;
    private long _start;
    private long _releasedAtStop = -1;
    private long _taken;
    private volatile bool _stopped;

    /// <param name="rate">Requests per second, over all connections.</param>
    /// <param name="time">The clock whose timestamps the due times are in: the system's (the
    /// <see cref="System.Diagnostics.Stopwatch"/> timestamps the engines compare them with) unless
    /// a test gives its own.</param>
    public ArrivalSchedule(double rate, TimeProvider? time = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(rate);
        Rate = rate;
        _time = time ?? TimeProvider.System;
        _ticksPerRequest = _time.TimestampFrequency / rate;
        _pacer = new Thread(Pace) { IsBackground = true, Name = "arrival schedule" };
    }

    public double Rate { get; }

    /// <summary>Requests due so far (frozen once stopped); 0 before the start.</summary>
    public long Released
    {
        get
        {
            var stopped = Volatile.Read(ref _releasedAtStop);
            return stopped >= 0 ? stopped : _start == 0 ? 0 : IndexAt(_time.GetTimestamp());
        }
    }

    /// <summary>Requests a connection has taken to send.</summary>
    public long Taken => Volatile.Read(ref _taken);

    /// <summary>Requests due but not yet taken: every connection was busy.</summary>
    public long Backlog => Math.Max(0, Released - Taken);

    /// <summary>The due time (Stopwatch ticks) of the next request not yet taken.</summary>
    public long NextDue => DueAt(Taken);

    /// <summary>The due time (Stopwatch ticks) of request <paramref name="index"/>.</summary>
    public long DueAt(long index) => _start + (long)(index * _ticksPerRequest);

    /// <summary>How many requests fall due from <paramref name="from"/> to <paramref name="to"/> (Stopwatch ticks).</summary>
    public long DueBetween(long from, long to) => Math.Max(0, IndexAt(to) - IndexAt(from));

    /// <param name="pace">Whether connections park on <see cref="NextAsync"/> and need the pacer
    /// thread to hand them requests; engines that only poll <see cref="TryTake"/> do not.</param>
    public void Start(bool pace = true)
    {
        _start = _time.GetTimestamp();
        if (pace)
        {
            _pacer.Start();
        }
    }

    /// <summary>
    /// The next due request's due time (Stopwatch ticks), at once when one is waiting, else when
    /// the pacer releases one; -1 once the schedule is stopped. One call at a time per waiter.
    /// </summary>
    public ValueTask<long> NextAsync(ScheduleWaiter waiter) => NextAsync(waiter, out _);

    /// <summary>
    /// As <see cref="NextAsync(ScheduleWaiter)"/>; <paramref name="freeWaiting"/> says whether a
    /// connection was free for the request (this one parks, or another is parked), so that if it
    /// leaves late the load fell behind, not the pool.
    /// </summary>
    public ValueTask<long> NextAsync(ScheduleWaiter waiter, out bool freeWaiting)
    {
        ArgumentNullException.ThrowIfNull(waiter);
        freeWaiting = false;
        if (_stopped)
        {
            return ValueTask.FromResult(-1L);
        }

        if (TryTake(out var due))
        {
            freeWaiting = !_parked.IsEmpty;
            return ValueTask.FromResult(due);
        }

        freeWaiting = true;
        var pending = waiter.Park();
        _parked.Enqueue(waiter);

        // A release (or the stop) may have come between the check and the enqueue: hand it out now.
        if (_stopped)
        {
            Stop();
        }
        else
        {
            Dispatch();
        }

        return pending;
    }

    /// <summary>Stops releasing requests and wakes every parked connection with -1.</summary>
    public void Stop()
    {
        if (!_stopped)
        {
            _ = Interlocked.CompareExchange(ref _releasedAtStop, Released, -1);
            _stopped = true;
        }

        while (_parked.TryDequeue(out var waiter))
        {
            waiter.Wake(-1);
        }
    }

    public void Dispose()
    {
        Stop();
        if (_pacer.IsAlive)
        {
            _pacer.Join();
        }

        Stop();
    }

    /// <summary>
    /// Takes the oldest released request, if any: its due time (Stopwatch ticks), never later than
    /// now. For engines that poll rather than park (the epoll workers).
    /// </summary>
    public bool TryTake(out long due)
    {
        var released = Released;
        while (true)
        {
            var taken = Volatile.Read(ref _taken);
            if (taken >= released || _stopped)
            {
                due = 0;
                return false;
            }

            if (Interlocked.CompareExchange(ref _taken, taken + 1, taken) == taken)
            {
                due = DueAt(taken);
                return true;
            }
        }
    }

    /// <summary>Hands released requests to parked connections, oldest parked first, while both remain.</summary>
    private void Dispatch()
    {
        while (Released > Taken && _parked.TryDequeue(out var waiter))
        {
            if (TryTake(out var due))
            {
                waiter.Wake(due);
            }
            else
            {
                // Another connection took it first: this one waits for the next.
                _parked.Enqueue(waiter);
                break;
            }
        }
    }

    private long IndexAt(long timestamp) => timestamp < _start ? 0 : (long)((timestamp - _start) / _ticksPerRequest) + 1;

    private void Pace()
    {
        // Hand what fell due to parked connections, then sleep until the next request is due:
        // Thread.Sleep's millisecond at least, so a parked connection gets its request within
        // ~1 ms of its time (a busy one takes it at once; the lateness is measured, never hidden).
        while (!_stopped)
        {
            Dispatch();

            var untilNext = (DueAt(Released) - _time.GetTimestamp()) * 1000 / _time.TimestampFrequency;
            Thread.Sleep((int)Math.Clamp(untilNext, 1, 50));
        }

        Stop();
    }
}

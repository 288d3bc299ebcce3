using System.Threading.Channels;
using Microsoft.Extensions.Time.Testing;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A fake clock (<see cref="FakeTimeProvider"/>) that tells when code under test starts to wait
/// on it, and how long for, so a test can jump from one wait to the next: no real time passes,
/// and no step lands between a timer being set and the code reaching it.
/// </summary>
internal sealed class SteppedClock : TimeProvider
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private readonly FakeTimeProvider _fake = new(Start);
    private readonly Channel<TimeSpan> _waits = Channel.CreateUnbounded<TimeSpan>();
    private Task<TimeSpan>? _next;

    public override long TimestampFrequency => _fake.TimestampFrequency;

    /// <summary>Time since the clock was made.</summary>
    public TimeSpan Elapsed => _fake.GetUtcNow() - Start;

    public override long GetTimestamp() => _fake.GetTimestamp();

    public override DateTimeOffset GetUtcNow() => _fake.GetUtcNow();

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = _fake.CreateTimer(callback, state, dueTime, period);
        if (dueTime != Timeout.InfiniteTimeSpan)
        {
            _waits.Writer.TryWrite(dueTime);
        }

        return timer;
    }

    /// <summary>Moves the clock on by <paramref name="span"/>, firing the timers it passes.</summary>
    public void Advance(TimeSpan span) => _fake.Advance(span);

    /// <summary>
    /// Moves the clock to each wait <paramref name="task"/> starts, one after the other, until it
    /// completes or <paramref name="until"/> holds when it next waits (then it is left waiting, and
    /// the next call moves on from there).
    /// </summary>
    public async Task RunAsync(Task task, Func<bool>? until = null)
    {
        ArgumentNullException.ThrowIfNull(task);
        for (var step = 0; step < 100_000; step++)
        {
            _next ??= _waits.Reader.ReadAsync().AsTask();
            var first = await Task.WhenAny(task, _next).WaitAsync(TimeSpan.FromSeconds(30));
            if (first == task)
            {
                await task;
                return;
            }

            if (until?.Invoke() == true)
            {
                return;
            }

            var wait = await _next;
            _next = null;
            _fake.Advance(wait);
        }

        throw new InvalidOperationException("the code under test kept waiting for 100,000 steps");
    }
}

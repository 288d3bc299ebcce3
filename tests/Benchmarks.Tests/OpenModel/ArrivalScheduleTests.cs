using Benchmarks.Load.OpenModel;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.OpenModel;

/// <summary>
/// The open model's timeline on a fake clock: request i falls due at start + i / rate whatever
/// the connections do, taken oldest first with its own due time (from which latency is
/// corrected), kept as a backlog while no connection is free, frozen at the stop.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class ArrivalScheduleTests
{
    [Fact]
    public void Requests_fall_due_at_the_rate_from_the_start_whatever_is_taken()
    {
        var time = new SteppedClock();
        using var schedule = new ArrivalSchedule(1000, time);
        Assert.Equal(0, schedule.Released);

        schedule.Start(pace: false);
        Assert.Equal(1, schedule.Released);
        time.Advance(TimeSpan.FromSeconds(1.5));
        Assert.Equal(1501, schedule.Released);
        Assert.Equal(1501, schedule.Backlog);
        Assert.Equal(500, schedule.DueBetween(schedule.DueAt(0), schedule.DueAt(0) + (time.TimestampFrequency / 2)));
    }

    [Fact]
    public void Each_request_is_taken_once_oldest_first_with_its_own_due_time_never_a_future_one()
    {
        var time = new SteppedClock();
        using var schedule = new ArrivalSchedule(4, time);
        schedule.Start(pace: false);
        var start = schedule.DueAt(0);
        time.Advance(TimeSpan.FromSeconds(1.1));

        var taken = new List<long>();
        while (schedule.TryTake(out var due))
        {
            taken.Add(due);
        }

        // Due at 0, 0.25, 0.5, 0.75 and 1.0 s: five by 1.1 s, each its own time; the sixth (1.25 s) waits.
        Assert.Equal([0, 0.25, 0.5, 0.75, 1.0], taken.Select(t => (double)(t - start) / time.TimestampFrequency));
        Assert.Equal(0, schedule.Backlog);
        Assert.Equal(schedule.DueAt(5), schedule.NextDue);

        time.Advance(TimeSpan.FromSeconds(0.15));
        Assert.True(schedule.TryTake(out var late));
        Assert.Equal(1.25, (double)(late - start) / time.TimestampFrequency);
    }

    [Fact]
    public async Task A_parked_connection_gets_a_due_request_at_once_and_minus_one_at_the_stop()
    {
        var time = new SteppedClock();
        using var schedule = new ArrivalSchedule(10, time);
        schedule.Start(pace: false);
        var waiter = new ScheduleWaiter();

        var first = schedule.NextAsync(waiter, out var free);
        Assert.True(first.IsCompleted);
        Assert.Equal(schedule.DueAt(0), await first);
        Assert.False(free);

        var parked = schedule.NextAsync(waiter, out free);
        Assert.False(parked.IsCompleted);
        Assert.True(free);

        schedule.Stop();
        Assert.Equal(-1, await parked);
        Assert.Equal(-1, await schedule.NextAsync(waiter));
    }

    [Fact]
    public void The_stop_freezes_what_fell_due_so_the_backlog_is_counted_once()
    {
        var time = new SteppedClock();
        using var schedule = new ArrivalSchedule(100, time);
        schedule.Start(pace: false);
        time.Advance(TimeSpan.FromSeconds(2));
        Assert.True(schedule.TryTake(out _));

        schedule.Stop();
        time.Advance(TimeSpan.FromSeconds(5));

        Assert.Equal(201, schedule.Released);
        Assert.Equal(1, schedule.Taken);
        Assert.Equal(200, schedule.Backlog);
        Assert.False(schedule.TryTake(out _));
    }
}

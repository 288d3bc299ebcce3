using Benchmarks.Load;
using Benchmarks.Load.Core;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Load;

/// <summary>
/// The load clock's rules on a fake clock: when warm-up ends (settled rate, minimum, maximum,
/// the server's own "warm" gate), how the window is cut into whole seconds, what an interruption
/// keeps, and the backlog drain's limit. The simulated servers' counts are functions of the fake
/// time, so every second reads exactly what the rule is meant to see.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class LoadClockTests
{
    [Fact]
    public async Task A_constant_server_is_warm_once_the_rule_has_seen_its_seconds()
    {
        var run = new ClockRun(seconds => 1000 * seconds);
        var (took, steady, reported) = await run.WarmUpAsync(TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(30));

        Assert.True(steady);
        Assert.Equal(DefaultLoad.SteadySeconds, reported);
        Assert.True(took >= TimeSpan.FromSeconds(DefaultLoad.SteadySeconds), took.ToString());
        Assert.All(run.Reports, r => Assert.Equal(1000, r.RequestsPerSecond));
    }

    [Fact]
    public async Task A_minimum_longer_than_the_rule_is_kept()
    {
        var run = new ClockRun(seconds => 1000 * seconds);
        var (_, steady, reported) = await run.WarmUpAsync(TimeSpan.FromSeconds(9), TimeSpan.FromSeconds(30));

        Assert.True(steady);
        Assert.Equal(9, reported);
    }

    [Fact]
    public async Task A_speeding_up_server_is_warm_only_after_it_stops_speeding_up()
    {
        // 30% more each second for 12 seconds (a JIT-compiling server), then constant.
        static double Rate(int second) => 100 * Math.Pow(1.3, Math.Min(second, 12));
        var run = new ClockRun(seconds => Enumerable.Range(1, (int)seconds).Sum(Rate));
        var (_, steady, reported) = await run.WarmUpAsync(TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(60));

        Assert.True(steady);
        Assert.InRange(reported, 13, 12 + DefaultLoad.SteadySeconds);
    }

    [Fact]
    public async Task A_flat_stretch_below_an_earlier_plateau_is_a_dip_still_recovering_not_warm()
    {
        // Kestrel's pipelined plaintext, as measured: 300k req/s after tier-1, a dip to 200k after a late recompilation
        // (seconds 20-31), flat there, then back to 300k from second 32; its JIT went quiet at second 31. Flat and
        // quiet but below the plateau is not warm: the window that followed such a warm-up climbed 19%.
        static double Rate(int second) => second switch { < 8 => 100_000, < 20 => 300_000, < 32 => 200_000, _ => 300_000 };
        var run = new ClockRun(seconds => Enumerable.Range(1, (int)seconds).Sum(Rate));
        var (_, steady, reported) = await run.WarmUpAsync(TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(60),
            gate: () => run.Elapsed >= TimeSpan.FromSeconds(31));

        Assert.True(steady);
        Assert.InRange(reported, 32 + (DefaultLoad.SteadySeconds / 2), 32 + DefaultLoad.SteadySeconds);
    }

    [Fact]
    public async Task A_server_that_never_settles_ends_at_the_maximum_marked_unsteady()
    {
        var run = new ClockRun(seconds => 100 * Math.Pow(1.5, seconds));
        var (took, steady, reported) = await run.WarmUpAsync(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(10.5));

        Assert.False(steady);
        Assert.Equal(11, reported);
        Assert.True(took >= TimeSpan.FromSeconds(11), took.ToString());
    }

    [Fact]
    public async Task The_servers_gate_holds_the_warm_up_until_it_says_warm()
    {
        var run = new ClockRun(seconds => 1000 * seconds);
        var (_, steady, reported) = await run.WarmUpAsync(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(30),
            gate: () => run.Elapsed >= TimeSpan.FromSeconds(14));

        Assert.True(steady);
        Assert.Equal(14, reported);
    }

    [Fact]
    public async Task A_window_in_which_nothing_is_ever_answered_and_every_attempt_fails_stops_after_its_third_second()
    {
        var refused = new ClockRun(_ => 0, seconds => 40 * seconds);
        var window = refused.Clock.RunWindowAsync(TimeSpan.FromSeconds(60), CancellationToken.None);
        await refused.Time.RunAsync(window);
        Assert.False(await window);
        Assert.True(refused.Clock.Unanswered);
        Assert.Equal(TimeSpan.FromSeconds(DefaultLoad.NoAnswerSeconds), refused.Elapsed);

        // A silent server (no answer, no error yet: timeouts come later) and one that answered are measured to the end.
        foreach (var (completed, errors) in new (Func<double, double>, Func<double, double>)[] { (_ => 0, _ => 0), (s => s < 1 ? 0 : 100, s => 40 * s) })
        {
            var run = new ClockRun(completed, errors);
            var full = run.Clock.RunWindowAsync(TimeSpan.FromSeconds(8), CancellationToken.None);
            await run.Time.RunAsync(full);
            Assert.False(run.Clock.Unanswered);
            Assert.Equal(TimeSpan.FromSeconds(8), run.Elapsed);
        }
    }

    [Fact]
    public async Task The_window_keeps_one_rate_per_whole_second_and_ends_at_its_duration()
    {
        var run = new ClockRun(seconds => seconds < 2 ? 500 * seconds : 1000 + (800 * (seconds - 2)));
        var window = run.Clock.RunWindowAsync(TimeSpan.FromSeconds(3.5), CancellationToken.None);
        await run.Time.RunAsync(window);

        Assert.False(await window);
        Assert.Equal([500.0, 500.0, 800.0], run.Clock.PerSecond);
        Assert.Equal(TimeSpan.FromSeconds(3.5), run.Elapsed);
        Assert.Equal([1, 2, 3], run.Reports.Where(r => r.Phase == LoadPhase.Window).Select(r => r.Second));
    }

    [Fact]
    public async Task A_window_cut_short_from_outside_keeps_what_was_measured_and_says_so()
    {
        var run = new ClockRun(seconds => 700 * seconds);
        using var stop = new CancellationTokenSource();
        var window = run.Clock.RunWindowAsync(TimeSpan.FromSeconds(10), stop.Token);
        await run.Time.RunAsync(window, until: () => run.Clock.PerSecond.Count == 4);
        await stop.CancelAsync();

        Assert.True(await window);
        Assert.Equal([700.0, 700.0, 700.0, 700.0], run.Clock.PerSecond);
        Assert.Equal(TimeSpan.FromSeconds(4), run.Elapsed);
    }

    [Theory]
    [InlineData(0.0, 1.0)] // answered from the start: the fixed second, no more
    [InlineData(2.5, 2.5)] // a cold server's first answer 1.5 s after the fixed second: the window opens on it
    [InlineData(99.0, 6.0)] // never answered: one timeout past the fixed second, then the window opens anyway
    public async Task A_fixed_warm_up_in_which_nothing_was_answered_lasts_until_the_first_answer_at_most_a_timeout_more(double firstAnswer, double expected)
    {
        var run = new ClockRun(seconds => seconds >= firstAnswer ? 1000 * (seconds - firstAnswer + 0.001) : 0);
        var warmUp = run.Clock.FixedWarmUpAsync(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(5), CancellationToken.None);
        await run.Time.RunAsync(warmUp);

        Assert.InRange((await warmUp).TotalSeconds, expected, expected + 0.021);
        Assert.All(run.Reports, r => Assert.Equal(LoadPhase.Warmup, r.Phase));
    }

    [Fact]
    public async Task A_failure_ends_the_wait_for_a_first_answer_and_no_warm_up_stays_none()
    {
        var failing = new ClockRun(_ => 0, errorsAt: seconds => seconds >= 1.5 ? 1 : 0);
        var warmUp = failing.Clock.FixedWarmUpAsync(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(5), CancellationToken.None);
        await failing.Time.RunAsync(warmUp);
        Assert.InRange((await warmUp).TotalSeconds, 1.5, 1.521);

        var none = new ClockRun(_ => 0);
        var noWarmUp = none.Clock.FixedWarmUpAsync(TimeSpan.Zero, TimeSpan.FromSeconds(5), CancellationToken.None);
        await none.Time.RunAsync(noWarmUp);
        Assert.Equal(TimeSpan.Zero, await noWarmUp);
        Assert.Equal(TimeSpan.Zero, none.Elapsed);
    }

    [Fact]
    public async Task The_backlog_drain_reports_its_seconds_and_gives_up_at_its_limit()
    {
        var run = new ClockRun(_ => 0);
        var drain = run.Clock.DrainAsync(() => run.Elapsed >= TimeSpan.FromSeconds(2.5), TimeSpan.FromSeconds(10), CancellationToken.None);
        await run.Time.RunAsync(drain);
        var (took, held) = await drain;

        Assert.True(held);
        Assert.Equal(TimeSpan.FromSeconds(2.5), took);
        Assert.Equal(2, run.Reports.Count(r => r.Phase == LoadPhase.Warmup));

        var never = new ClockRun(_ => 0);
        var stuck = never.Clock.DrainAsync(() => false, TimeSpan.FromSeconds(3), CancellationToken.None);
        await never.Time.RunAsync(stuck);
        var (tookNever, heldNever) = await stuck;
        Assert.False(heldNever);
        Assert.Equal(TimeSpan.FromSeconds(3), tookNever);
    }

    [Fact]
    public async Task A_second_whose_tick_comes_late_is_a_rate_over_its_own_length_and_does_not_starve_the_next()
    {
        // A server at a constant 1,000 responses a second; the machine holds the first tick half a second.
        var run = new ClockRun(t => 1000 * t);
        var window = run.Clock.RunWindowAsync(TimeSpan.FromSeconds(3), CancellationToken.None);
        await run.Time.RunAsync(window, until: () => true);
        run.Time.Advance(TimeSpan.FromMilliseconds(500));
        await run.Time.RunAsync(window);

        // Counted per tick, the seconds would read 1,500, 500 and 1,000.
        Assert.Equal(3, run.Clock.PerSecond.Count);
        Assert.All(run.Clock.PerSecond, rate => Assert.InRange(rate, 999.9, 1000.1));
        Assert.All(run.Reports.Where(r => r.Phase == LoadPhase.Window), r => Assert.InRange(r.RequestsPerSecond, 999.9, 1000.1));
    }
}

using Benchmarks.Load.OpenModel;

namespace Benchmarks.Load.Core;

/// <summary>
/// The open model's gate between warm-up and window: the window opens once requests leave on
/// time (no more than <see cref="DefaultLoad.LateAfter"/> worth of them waiting). A backlog the
/// warm-up left (a new load's connects, a server still speeding up, an earlier step's overload)
/// would otherwise be drained inside the window and read as the server's latency and rate. The
/// warm-up is extended for it at most as long again as it ran (and at most <see cref="LimitSeconds"/>);
/// a backlog that does not drain is measured.
/// </summary>
internal static class BacklogDrain
{
    /// <summary>The longest the window waits for the backlog, however long the warm-up was.</summary>
    public const double LimitSeconds = 10;

    /// <summary>How long the warm-up was extended, and the requests still waiting when the window opens.</summary>
    public static async Task<(TimeSpan Took, long Backlog)> WaitAsync(LoadClock clock, ArrivalSchedule schedule, TimeSpan warmup,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(clock);
        ArgumentNullException.ThrowIfNull(schedule);
        var onTime = Math.Max(1, (long)(schedule.Rate * DefaultLoad.LateAfter.TotalSeconds));
        var limit = TimeSpan.FromSeconds(Math.Min(warmup.TotalSeconds, LimitSeconds));
        var (took, _) = await clock.DrainAsync(() => schedule.Backlog <= onTime, limit, cancellationToken);
        return (took, schedule.Backlog);
    }
}

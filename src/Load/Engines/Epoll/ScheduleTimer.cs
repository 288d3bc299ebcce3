using System.Diagnostics;
using System.Runtime.Versioning;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// An epoll worker's timer for the open model: a timerfd in the worker's epoll set that fires at
/// the next due request's time, on a grid of <see cref="Resolution"/>, so an idle thread sleeps
/// until then rather than polling.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class ScheduleTimer : IDisposable
{
    /// <summary>The epoll data of the timer (connections use their index).</summary>
    public const ulong EpollData = ulong.MaxValue;

    /// <summary>
    /// The grid (200 µs unless BENCHMARKS_TIMER_US says). A request is sent at most this long after
    /// its due time when a connection is idle; the thread wakes at most 1 / this times a second for the schedule.
    /// </summary>
    public static readonly TimeSpan Resolution = TimeSpan.FromMicroseconds(EnvironmentMicroseconds("BENCHMARKS_TIMER_US", 200));

    private static readonly double s_nanosecondsPerTick = 1e9 / Stopwatch.Frequency;
    private static readonly long s_resolutionTicks = Math.Max(1, (long)(Resolution.TotalSeconds * Stopwatch.Frequency));

    private readonly int _fd;

    /// <summary>CLOCK_MONOTONIC minus the Stopwatch's clock, in nanoseconds (0 where they are the same clock).</summary>
    private readonly long _clockOffset;

    /// <summary>The time (Stopwatch ticks) the timer is set for; 0 when it is not set.</summary>
    private long _armedFor;

    private ScheduleTimer(int fd)
    {
        _fd = fd;
        _clockOffset = EpollNative.MonotonicNanoseconds() - (long)(Stopwatch.GetTimestamp() * s_nanosecondsPerTick);
    }

    /// <summary>A timer in <paramref name="epoll"/>'s set; null where one cannot be made (the worker then polls every millisecond).</summary>
    public static ScheduleTimer? Open(int epoll)
    {
        var fd = EpollNative.CreateTimer();
        if (fd < 0)
        {
            return null;
        }

        if (EpollNative.Control(epoll, EpollNative.EPOLL_CTL_ADD, fd, EpollNative.EPOLLIN, EpollData) != 0)
        {
            EpollNative.Close(fd);
            return null;
        }

        return new ScheduleTimer(fd);
    }

    /// <summary>Sets the timer for <paramref name="due"/> (Stopwatch ticks), rounded up to the grid; once per grid point.</summary>
    public void Arm(long due)
    {
        // Each wake sends every request that fell due since the last (their lateness is in their latency).
        var wakeAt = ((due + s_resolutionTicks - 1) / s_resolutionTicks) * s_resolutionTicks;
        if (wakeAt == _armedFor)
        {
            return;
        }

        _armedFor = wakeAt;
        _ = EpollNative.ArmTimer(_fd, (long)(wakeAt * s_nanosecondsPerTick) + _clockOffset);
    }

    /// <summary>The timer fired: clears it.</summary>
    public void Fired()
    {
        EpollNative.ClearTimer(_fd);
        _armedFor = 0;
    }

    public void Dispose() => EpollNative.Close(_fd);

    private static double EnvironmentMicroseconds(string name, double fallback) =>
        double.TryParse(Environment.GetEnvironmentVariable(name), System.Globalization.CultureInfo.InvariantCulture, out var value) && value > 0
            ? value
            : fallback;
}

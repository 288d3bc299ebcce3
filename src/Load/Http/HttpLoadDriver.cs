using System.Diagnostics;
using Benchmarks.Load.Core;

namespace Benchmarks.Load.Http;

/// <summary>
/// An HTTP load's connections (either engine) as the shared run drives them; at the window's
/// edges it reads how long the engine's threads waited, for the share of the window they were busy.
/// </summary>
internal sealed class HttpLoadDriver(IHttpConnectionPool pool, LoadRunState state) : ILoadDriver
{
    private (long Ticks, int Threads)? _waitingAtStart;
    private long _windowStart;

    public LoadSwitches Switches => state;

    public Task Completion => pool.Completion;

    /// <summary>The share of the window (%) the engine's threads were not waiting in epoll_wait, over all its threads; null where it cannot say.</summary>
    public double? ThreadsBusyPercent { get; private set; }

    public (long Completed, long Errors) Totals()
    {
        var total = pool.Totals();
        return (total.Good + total.Bad, total.Errors);
    }

    public long WarmupCompleted() => pool.Totals().WarmupCompleted;

    public void Abort() => pool.Abort();

    public ValueTask WindowOpenedAsync(CancellationToken cancellationToken)
    {
        _waitingAtStart = pool.Waiting();
        _windowStart = Stopwatch.GetTimestamp();
        return ValueTask.CompletedTask;
    }

    public void WindowClosed()
    {
        var windowTicks = Stopwatch.GetTimestamp() - _windowStart;
        ThreadsBusyPercent = _waitingAtStart is { } start && pool.Waiting() is { } end && windowTicks > 0 && end.Threads > 0
            ? Math.Clamp(100 * (1 - ((double)(end.Ticks - start.Ticks) / (windowTicks * end.Threads))), 0, 100)
            : null;
    }
}

namespace Benchmarks.Load.Core;

/// <summary>
/// Ticks once a second through warm-up and window, reporting progress and keeping per-second
/// rates. Time comes from a <see cref="TimeProvider"/> (the system's unless one is given), so its
/// rules (when warm-up ends, how the window is cut into seconds) run on a fake clock in tests.
/// </summary>
internal sealed class LoadClock
{
    private readonly TimeProvider _time;
    private readonly Func<(long Completed, long Errors)> _read;
    private readonly Func<long>? _warmupRead;
    private long _lastWarmup;
    private readonly IProgress<LoadProgress>? _progress;
    private readonly List<double> _perSecond = [];
    private long _lastCompleted;
    private long _lastErrors;
    private int _second;

    /// <summary>When the last second was reported: each second's rate is its count over its own length.</summary>
    private long _lastTick;

    /// <param name="read">Reads the run's totals so far (completed requests or messages, errors), without locks.</param>
    /// <param name="progress">Where each second is reported.</param>
    /// <param name="warmupRead">Reads the responses completed during warm-up, for the warm-up's per-second rate.</param>
    /// <param name="time">The clock; the system's when none is given.</param>
    public LoadClock(Func<(long Completed, long Errors)> read, IProgress<LoadProgress>? progress, Func<long>? warmupRead = null, TimeProvider? time = null)
    {
        _time = time ?? TimeProvider.System;
        _read = read;
        _warmupRead = warmupRead;
        _progress = progress;
    }

    public IReadOnlyList<double> PerSecond => _perSecond;

    /// <summary>
    /// The window ended early: after <see cref="DefaultLoad.NoAnswerSeconds"/> of it every attempt had
    /// failed and nothing had ever been answered, warm-up included (a closed port, a dead server).
    /// </summary>
    public bool Unanswered { get; private set; }

    public void BeginWindow()
    {
        _second = 0;
        _lastCompleted = 0;
        _lastErrors = 0;
        _progress?.Report(new LoadProgress(LoadPhase.WindowStarted, 0, 0, 0));
    }

    public void EndWindow() => _progress?.Report(new LoadProgress(LoadPhase.WindowEnded, _second, 0, 0));

    /// <summary>
    /// Runs the measured window. True when it was cut short from outside (Ctrl+C, SIGTERM, a parent
    /// that exited): what was measured so far is still reported, marked as interrupted.
    /// </summary>
    public async Task<bool> RunWindowAsync(TimeSpan duration, CancellationToken cancellationToken)
    {
        try
        {
            await TickAsync(duration, measuring: true, cancellationToken);
            return false;
        }
        catch (OperationCanceledException)
        {
            return true;
        }
    }

    /// <summary>
    /// Warms up for at least <paramref name="minimum"/>, then until the per-second rate read by
    /// <paramref name="warmupCompleted"/> has settled over the last
    /// <see cref="DefaultLoad.SteadySeconds"/> seconds, is back at the best level it held before
    /// (<see cref="Statistics.Trend.IsRecovered"/>), and <paramref name="gate"/> (when there is one)
    /// says the server is warm, at most <paramref name="maximum"/>.
    /// Returns how long it took and whether it ended steady.
    /// </summary>
    public async Task<(TimeSpan Took, bool Steady)> WarmUpAsync(TimeSpan minimum, TimeSpan maximum, Func<long> warmupCompleted, Func<bool>? gate,
        CancellationToken cancellationToken)
    {
        var start = _time.GetTimestamp();
        var rates = new List<double>();
        var best = 0.0;
        var last = warmupCompleted();
        _second = 0;
        _lastTick = start;
        for (var second = 1; second <= (int)Math.Ceiling(maximum.TotalSeconds); second++)
        {
            await DelayUntilAsync(start, TimeSpan.FromSeconds(second), cancellationToken);
            var now = warmupCompleted();
            rates.Add(PerSecondOf(now - last));
            last = now;
            _second++;
            _progress?.Report(new LoadProgress(LoadPhase.Warmup, _second, rates[^1], 0));
            if (rates.Count < DefaultLoad.SteadySeconds)
            {
                continue;
            }

            var level = Statistics.Trend.Level(rates[^DefaultLoad.SteadySeconds..]);
            best = Math.Max(best, level);
            if (second >= minimum.TotalSeconds)
            {
                var (drift, _) = Statistics.Trend.Fit(rates[^DefaultLoad.SteadySeconds..]);
                if (Statistics.Trend.IsSettled(drift) && Statistics.Trend.IsRecovered(level, best) && (gate is null || gate()))
                {
                    return (_time.GetElapsedTime(start), true);
                }
            }
        }

        return (_time.GetElapsedTime(start), false);
    }

    /// <summary>
    /// Extends the warm-up until <paramref name="drained"/> holds (checked every 20 ms), at most
    /// <paramref name="maximum"/>, reporting warm-up seconds as they pass; how long it took and
    /// whether it held.
    /// </summary>
    public async Task<(TimeSpan Took, bool Drained)> DrainAsync(Func<bool> drained, TimeSpan maximum, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(drained);
        var start = _time.GetTimestamp();
        var reported = 0;
        _lastTick = start;
        while (!drained())
        {
            var elapsed = _time.GetElapsedTime(start);
            if (elapsed >= maximum)
            {
                return (elapsed, false);
            }

            await Task.Delay(TimeSpan.FromMilliseconds(20), _time, cancellationToken);
            if (_time.GetElapsedTime(start).TotalSeconds >= reported + 1)
            {
                reported++;
                Report(measuring: false);
            }
        }

        return (_time.GetElapsedTime(start), true);
    }

    /// <summary>
    /// A fixed warm-up: <paramref name="span"/>, then, when nothing has been answered yet (a cold
    /// server still compiling its handshakes, or a slow first connection), until the first answer,
    /// at most <paramref name="answerWait"/> (the load's timeout) more: a window opened before the
    /// server answered anything measures its start-up, not its service. An error the totals count
    /// ends the wait too; the protocols count none before the window, so a server that never answers
    /// costs the whole timeout. No warm-up (a zero span) stays none. Returns how long it took.
    /// </summary>
    public async Task<TimeSpan> FixedWarmUpAsync(TimeSpan span, TimeSpan answerWait, CancellationToken cancellationToken)
    {
        await TickAsync(span, measuring: false, cancellationToken);
        if (span <= TimeSpan.Zero)
        {
            return span;
        }

        var (took, _) = await DrainAsync(Answered, answerWait, cancellationToken);
        return span + took;
    }

    /// <summary>Waits out <paramref name="span"/>, reporting at each whole second from its start (no drift).</summary>
    public async Task TickAsync(TimeSpan span, bool measuring, CancellationToken cancellationToken)
    {
        var start = _time.GetTimestamp();
        _second = 0;
        _lastTick = start;
        var wholeSeconds = (int)Math.Floor(span.TotalSeconds);
        for (var second = 1; second <= wholeSeconds; second++)
        {
            await DelayUntilAsync(start, TimeSpan.FromSeconds(second), cancellationToken);
            Report(measuring);
            if (measuring && second >= DefaultLoad.NoAnswerSeconds && NothingAnswered())
            {
                Unanswered = true;
                return;
            }
        }

        await DelayUntilAsync(start, span, cancellationToken);
    }

    private async Task DelayUntilAsync(long start, TimeSpan offset, CancellationToken cancellationToken)
    {
        var left = offset - _time.GetElapsedTime(start);
        if (left > TimeSpan.Zero)
        {
            await Task.Delay(left, _time, cancellationToken);
        }
    }

    /// <summary>
    /// A second's count as a rate over the time since the last report: a tick the machine delayed
    /// (the next one keeps to its whole second, so it comes early) neither inflates its second nor
    /// starves the next.
    /// </summary>
    private double PerSecondOf(long count)
    {
        var now = _time.GetTimestamp();
        var seconds = _time.GetElapsedTime(_lastTick, now).TotalSeconds;
        _lastTick = now;
        return seconds > 0.01 ? count / seconds : count;
    }

    private bool Answered()
    {
        var (completed, errors) = _read();
        return completed > 0 || errors > 0 || (_warmupRead?.Invoke() ?? 0) > 0;
    }

    private bool NothingAnswered()
    {
        var (completed, errors) = _read();
        return completed == 0 && errors > 0 && (_warmupRead?.Invoke() ?? 0) == 0;
    }

    private void Report(bool measuring)
    {
        var (completed, errors) = _read();
        _second++;
        if (measuring)
        {
            var rate = PerSecondOf(completed - _lastCompleted);
            _perSecond.Add(rate);
            _progress?.Report(new LoadProgress(LoadPhase.Window, _second, rate, errors - _lastErrors));
            _lastCompleted = completed;
            _lastErrors = errors;
        }
        else
        {
            var warm = _warmupRead?.Invoke() ?? 0;
            _progress?.Report(new LoadProgress(LoadPhase.Warmup, _second, PerSecondOf(warm - _lastWarmup), 0));
            _lastWarmup = warm;
        }
    }
}

using System.Collections.Concurrent;
using Benchmarks.Load.Core;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A <see cref="LoadClock"/> on a <see cref="SteppedClock"/>, reading a simulated server whose
/// completed count is a function of the fake time, and keeping every progress report.
/// </summary>
internal sealed class ClockRun : IProgress<LoadProgress>
{
    private readonly Func<double, double> _completedAt;
    private readonly ConcurrentQueue<LoadProgress> _reports = new();

    /// <param name="completedAt">Responses completed after so many seconds.</param>
    /// <param name="errorsAt">Errors after so many seconds; none when not given.</param>
    public ClockRun(Func<double, double> completedAt, Func<double, double>? errorsAt = null)
    {
        _completedAt = completedAt;
        Clock = new LoadClock(() => (Completed(), (long)(errorsAt?.Invoke(Elapsed.TotalSeconds) ?? 0)), this, Completed, Time);
    }

    public SteppedClock Time { get; } = new();

    public LoadClock Clock { get; }

    public TimeSpan Elapsed => Time.Elapsed;

    public IReadOnlyList<LoadProgress> Reports => [.. _reports];

    public void Report(LoadProgress value) => _reports.Enqueue(value);

    /// <summary>Warms up on the fake clock: how long it took, whether it ended steady, and how many warm-up seconds it reported.</summary>
    public async Task<(TimeSpan Took, bool Steady, int Reported)> WarmUpAsync(TimeSpan minimum, TimeSpan maximum, Func<bool>? gate = null)
    {
        var warmUp = Clock.WarmUpAsync(minimum, maximum, Completed, gate, CancellationToken.None);
        await Time.RunAsync(warmUp);
        var (took, steady) = await warmUp;
        return (took, steady, _reports.Count(r => r.Phase == LoadPhase.Warmup));
    }

    private long Completed() => (long)_completedAt(Elapsed.TotalSeconds);
}

namespace Benchmarks.Load.Core;

/// <summary>
/// What the connections of one load run read and <see cref="LoadRun"/> sets: measuring (the
/// window is open), stopping (no new request or message; what is in flight may finish) and the
/// hard stop (what is still in flight is unfinished, not an error). Each protocol's run state
/// derives from it with what its connections share besides.
/// </summary>
internal abstract class LoadSwitches : IDisposable
{
    private readonly CancellationTokenSource _abort = new();
    private volatile bool _measuring;
    private volatile bool _stopping;

    /// <summary>Open model: the timeline requests or messages are taken from; null: closed loop.</summary>
    public OpenModel.ArrivalSchedule? Schedule { get; init; }

    /// <summary>Open model: a send later than this after its due time (Stopwatch ticks) is counted late.</summary>
    public long LateTicks { get; } = (long)(DefaultLoad.LateAfter.TotalSeconds * System.Diagnostics.Stopwatch.Frequency);

    /// <summary>What is sent while this is set is counted; the warm-up's is not.</summary>
    public bool Measuring
    {
        get => _measuring;
        set => _measuring = value;
    }

    /// <summary>No new request, message or connection once this is set; what is in flight may finish.</summary>
    public bool Stopping
    {
        get => _stopping;
        set => _stopping = value;
    }

    /// <summary>The hard stop has come: what is in flight is unfinished, not an error.</summary>
    public bool Aborted => _abort.IsCancellationRequested;

    /// <summary>Cancelled at the hard stop.</summary>
    public CancellationToken Abort => _abort.Token;

    public void AbortNow() => _abort.Cancel();

    public void Dispose()
    {
        _abort.Dispose();
        GC.SuppressFinalize(this);
    }
}

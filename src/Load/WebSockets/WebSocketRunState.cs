namespace Benchmarks.Load.WebSockets;

/// <summary>Shared by the connections of one WebSocket load run.</summary>
internal sealed class WebSocketRunState : IDisposable
{
    private readonly CancellationTokenSource _abort = new();
    private volatile bool _measuring;
    private volatile bool _stopping;

    /// <summary>Open model: the timeline messages are taken from; null: closed loop.</summary>
    public OpenModel.ArrivalSchedule? Schedule { get; init; }

    /// <summary>Open model: a send later than this after its due time (Stopwatch ticks) is counted late.</summary>
    public long LateTicks { get; } = (long)(DefaultLoad.LateAfter.TotalSeconds * System.Diagnostics.Stopwatch.Frequency);

    /// <summary>Connections open and idle (idle mode).</summary>
    public int Open;

    public bool Measuring
    {
        get => _measuring;
        set => _measuring = value;
    }

    public bool Stopping
    {
        get => _stopping;
        set => _stopping = value;
    }

    public bool Aborted => _abort.IsCancellationRequested;

    /// <summary>Cancelled at the hard stop: what is in flight then is unfinished, not an error.</summary>
    public CancellationToken Abort => _abort.Token;

    public void AbortNow() => _abort.Cancel();

    public void Dispose() => _abort.Dispose();
}

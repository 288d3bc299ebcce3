namespace Benchmarks.Load.Tcp;

/// <summary>Shared by the connections of one TCP load run.</summary>
internal sealed class TcpRunState : IDisposable
{
    private readonly CancellationTokenSource _abort = new();
    private volatile bool _measuring;
    private volatile bool _stopping;

    public bool Measuring
    {
        get => _measuring;
        set => _measuring = value;
    }

    /// <summary>No new message or connection; what is in flight may finish.</summary>
    public bool Stopping
    {
        get => _stopping;
        set => _stopping = value;
    }

    /// <summary>Cancelled at the hard stop: what is in flight then is unfinished, not an error.</summary>
    public CancellationToken Abort => _abort.Token;

    public void AbortNow() => _abort.Cancel();

    public void Dispose() => _abort.Dispose();
}

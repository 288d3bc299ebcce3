namespace Benchmarks.Load.Tcp;

/// <summary>
/// What one TCP load connection counted in the measured window. Each message sent in the window
/// ends once: answered, failed (by cause) or unfinished when the run stopped, so
/// sent = answered + failed + unfinished. Connects and connect failures are counted apart.
/// </summary>
internal sealed class TcpCounters
{
    private static readonly int s_causes = Enum.GetValues<TcpFailure>().Length;

    public long Sent;
    public long Answered;
    public long Unfinished;
    public long Connects;

    /// <summary>Open model: requests sent more than the tolerance after their due time.</summary>
    public long Late;

    /// <summary>Open model: of <see cref="Late"/>, those taken while this connection was idle (the load fell behind, not the pool).</summary>
    public long LateByLoad;

    /// <summary>Answers to requests sent before the window (the warm-up's rate).</summary>
    public long WarmupAnswered;

    public long[] Failed { get; } = new long[s_causes];

    public long[] ConnectFailed { get; } = new long[s_causes];

    public long FailedTotal => Failed.Sum();

    public long ConnectFailedTotal => ConnectFailed.Sum();
}

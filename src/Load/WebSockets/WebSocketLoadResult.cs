using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.WebSockets;

/// <summary>What a WebSocket load run measured over its window. In echo modes: sent = good + bad + lost + unfinished.</summary>
public sealed record WebSocketLoadResult
{
    public required string Url { get; init; }

    public WebSocketLoadMode Mode { get; init; }

    public EchoMessageKind Message { get; init; }

    public int Connections { get; init; }

    public double ElapsedSeconds { get; init; }

    public long Sent { get; init; }

    /// <summary>Replies that followed the echo rule.</summary>
    public long Good { get; init; }

    /// <summary>Replies that broke it (wrong text, wrong parity, wrong type).</summary>
    public long Bad { get; init; }

    /// <summary>Messages in flight on a connection that failed or closed.</summary>
    public long Lost { get; init; }

    public long Unfinished { get; init; }

    /// <summary>Connection errors: refused, reset, failed handshakes, abnormal closes, timeouts.</summary>
    public long Errors { get; init; }

    /// <summary>Completed handshakes (connect mode: sessions).</summary>
    public long Connects { get; init; }

    /// <summary>CPU the load process spent in user mode during the window, in seconds.</summary>
    public double CpuUserSeconds { get; init; }

    /// <summary>CPU the load process spent in kernel mode during the window, in seconds.</summary>
    public double CpuKernelSeconds { get; init; }

    /// <summary>The wall-clock time over which the CPU seconds above were counted.</summary>
    public double CpuWindowSeconds { get; init; }

    /// <summary>Handshakes completed over the whole run, warm-up included: the connections an echo run held open.</summary>
    public long Handshakes { get; init; }

    public double MessagesPerSecond => ElapsedSeconds > 0 ? Good / ElapsedSeconds : 0;

    public double ConnectsPerSecond => ElapsedSeconds > 0 ? Connects / ElapsedSeconds : 0;

    /// <summary>Round trip of each echo, from its own send (ms).</summary>
    public required LatencySummary RoundTrip { get; init; }

    /// <summary>Connection and handshake time (ms), with the 95th percentile k6 reports.</summary>
    public required LatencySummary Connect { get; init; }

    public double ConnectP95 { get; init; }

    public double RoundTripP95 { get; init; }

    public IReadOnlyList<double> PerSecond { get; init; } = [];

    /// <summary>Idle mode: resident memory the load process gained per open connection, in bytes.</summary>
    public double MemoryPerConnection { get; init; }

    /// <summary>Idle mode: managed heap the load process gained per open connection, in bytes.</summary>
    public double ManagedMemoryPerConnection { get; init; }

    /// <summary>Idle mode: connections that were open at the measurement.</summary>
    public int OpenConnections { get; init; }

    public string? FirstError { get; init; }

    public bool Interrupted { get; init; }

    /// <summary>Bad replies break the protocol: such a run is never reported as clean.</summary>
    /// <summary>Open model: the requested rate (messages/s); null in the closed loop.</summary>
    public double? RequestedRate { get; init; }

    /// <summary>Open model: messages whose due time fell in the window.</summary>
    public long Due { get; init; }

    /// <summary>Open model: messages sent later than <see cref="DefaultLoad.LateAfter"/> after their due time.</summary>
    public long Late { get; init; }

    /// <summary>Open model: of <see cref="Late"/>, those sent late although a connection was free for them: the load generator fell behind, not the pool.</summary>
    public long LateByLoad { get; init; }

    /// <summary>Open model: messages due but not sent when the window opened (the warm-up waits up to its own length again for them).</summary>
    public long BacklogAtStart { get; init; }

    /// <summary>Open model: messages due but not sent when the window ended.</summary>
    public long Backlog { get; init; }

    /// <summary>Open model: round trips timed from the send, not the due time.</summary>
    public LatencySummary? Uncorrected { get; init; }

    public bool IsClean => !Interrupted && Bad == 0 && Errors == 0 && Lost == 0 && (Good > 0 || Connects > 0 || OpenConnections > 0);
}

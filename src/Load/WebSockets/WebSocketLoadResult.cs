using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.WebSockets;

/// <summary>What a WebSocket load run measured over its window. In echo modes: sent = good + bad + lost + unfinished.</summary>
public sealed record WebSocketLoadResult : Core.LoadWindowResult
{
    public WebSocketLoadMode Mode { get; init; }

    public EchoMessageKind Message { get; init; }

    /// <summary>Replies that followed the echo rule.</summary>
    public long Good { get; init; }

    /// <summary>Replies that broke it (wrong text, wrong parity, wrong type).</summary>
    public long Bad { get; init; }

    /// <summary>Messages in flight on a connection that failed or closed.</summary>
    public long Lost { get; init; }

    /// <summary>Connection errors: refused, reset, failed handshakes, abnormal closes, timeouts.</summary>
    public long Errors { get; init; }

    /// <summary>Handshakes completed over the whole run, warm-up included: the connections an echo run held open.</summary>
    public long Handshakes { get; init; }

    public double MessagesPerSecond => ElapsedSeconds > 0 ? Good / ElapsedSeconds : 0;

    /// <summary>Round trip of each echo, from its own send (ms).</summary>
    public required LatencySummary RoundTrip { get; init; }

    /// <summary>Connection and handshake time (ms), with the 95th percentile k6 reports.</summary>
    public required LatencySummary Connect { get; init; }

    public double ConnectP95 { get; init; }

    public double RoundTripP95 { get; init; }

    /// <summary>Idle mode: resident memory the load process gained per open connection, in bytes.</summary>
    public double MemoryPerConnection { get; init; }

    /// <summary>Idle mode: managed heap the load process gained per open connection, in bytes.</summary>
    public double ManagedMemoryPerConnection { get; init; }

    /// <summary>Idle mode: connections that were open at the measurement.</summary>
    public int OpenConnections { get; init; }

    /// <summary>Bad replies break the protocol: such a run is never reported as clean.</summary>
    public bool IsClean => !Interrupted && Bad == 0 && Errors == 0 && Lost == 0 && (Good > 0 || Connects > 0 || OpenConnections > 0);
}

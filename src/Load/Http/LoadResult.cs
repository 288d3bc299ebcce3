using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Http;

/// <summary>
/// What a load run measured over its window (warm-up excluded). Accounting holds exactly:
/// <c>Sent = Good + Bad + Lost + Unfinished</c>.
/// </summary>
public sealed record LoadResult : Core.LoadWindowResult
{
    /// <summary>The engine that drove the connections: <c>epoll</c> (Linux, closed loop with keep-alive) or <c>sockets</c>.</summary>
    public string Engine { get; init; } = "sockets";

    public int Threads { get; init; }

    public int PipelineDepth { get; init; }

    /// <summary>Responses received: good plus bad.</summary>
    public long Requests => Good + Bad;

    /// <summary>2xx/3xx responses whose body the scenario accepted.</summary>
    public long Good { get; init; }

    /// <summary>Other status codes, rejected bodies, malformed responses.</summary>
    public long Bad { get; init; }

    /// <summary>Requests in flight on a connection that failed.</summary>
    public long Lost { get; init; }

    public required SocketErrors Errors { get; init; }

    /// <summary>Spoken over HTTP/2: <see cref="PipelineDepth"/> then counts concurrent streams per connection.</summary>
    public bool Http2 { get; init; }

    public long BytesReceived { get; init; }

    /// <summary>
    /// How the gRPC calls went (<c>unary</c>, <c>ping-pong</c>, <c>server-streaming</c>,
    /// <c>client-streaming</c>); null when the load made no gRPC calls.
    /// </summary>
    public string? GrpcCall { get; init; }

    /// <summary>
    /// gRPC streams (ping-pong, server streaming): the messages per second of one stream, the rate
    /// over connections × streams; null otherwise.
    /// </summary>
    public double? MessagesPerSecondPerStream =>
        GrpcCall is "ping-pong" or "server-streaming" && Connections * PipelineDepth > 0 ? RequestsPerSecond / (Connections * PipelineDepth) : null;

    /// <summary>Client streaming: the request messages each call streamed; 1 otherwise.</summary>
    public int GrpcMessagesPerCall { get; init; } = 1;

    /// <summary>Client streaming: the request messages a second the answered calls carried (calls a second × messages a call); null otherwise.</summary>
    public double? RequestMessagesPerSecond => GrpcCall is "client-streaming" ? RequestsPerSecond * GrpcMessagesPerCall : null;

    /// <summary>gRPC calls answered in the window by status name (OK included; "missing": no grpc-status); null when the load made no gRPC calls.</summary>
    public IReadOnlyDictionary<string, long>? GrpcStatuses { get; init; }

    public double RequestsPerSecond => ElapsedSeconds > 0 ? Requests / ElapsedSeconds : 0;

    /// <summary>MB (10^6 bytes) received per second.</summary>
    public double ThroughputMegabytesPerSecond => ElapsedSeconds > 0 ? BytesReceived / ElapsedSeconds / 1_000_000 : 0;

    public required LatencySummary Latency { get; init; }

    /// <summary>False: a new connection per request (Connection: close).</summary>
    public bool KeepAlive { get; init; } = true;

    /// <summary>Without keep-alive: connect time (ms), apart from the request's latency.</summary>
    public LatencySummary? Connect { get; init; }

    /// <summary>Over TLS: handshakes completed in the window (one per connection opened in it).</summary>
    public long Handshakes { get; init; }

    /// <summary>Over TLS: handshakes that failed in the window (also counted as connect errors).</summary>
    public long HandshakeErrors { get; init; }

    /// <summary>Over TLS, when handshakes were timed in the window: their times (ms), apart from the connect's.</summary>
    public LatencySummary? Handshake { get; init; }

    /// <summary>Over TLS: the version and cipher suite agreed, such as "TLS 1.3, TLS_AES_256_GCM_SHA384"; null in cleartext.</summary>
    public string? Tls { get; init; }

    public double HandshakesPerSecond => ElapsedSeconds > 0 ? Handshakes / ElapsedSeconds : 0;

    /// <summary>
    /// HTTP/2: the connection-seconds of the window in which a request or message waited for the
    /// server's flow-control window, summed over the connections; null for HTTP/1.1. This load's
    /// own windows (1 GiB, widened at half) never hold the server back.
    /// </summary>
    public double? FlowControlWaitSeconds { get; init; }

    /// <summary>HTTP/2: <see cref="FlowControlWaitSeconds"/> as a share of the connections' time in the window (%); null for HTTP/1.1.</summary>
    public double? FlowControlWaitPercent =>
        FlowControlWaitSeconds is { } wait && ElapsedSeconds > 0 && Connections > 0 ? Math.Min(100, wait / (Connections * ElapsedSeconds) * 100) : null;

    /// <summary>Without keep-alive: time from the send to the response's first byte (ms).</summary>
    public LatencySummary? FirstByte { get; init; }

    /// <summary>
    /// The share of the window (%) the load's threads spent working rather than waiting for the
    /// network or the schedule (epoll engine; over all its threads; time runnable but not running
    /// counts as working); null for the portable engine. Near 100 the load, not the server, set
    /// the pace.
    /// </summary>
    public double? ThreadsBusyPercent { get; init; }

    /// <summary>Open model: the achieved rate fell short of the requested by more than <see cref="DefaultLoad.ShortfallLimit"/>.</summary>
    public bool IsShort => RequestedRate is { } requested && RequestsPerSecond < requested * (1 - DefaultLoad.ShortfallLimit);

    /// <summary>True when every request was answered well: nothing for a user to distrust.</summary>
    public bool IsClean => !Interrupted && Requests > 0 && Bad == 0 && Errors.Total == 0 && Lost == 0;
}

namespace Benchmarks.Scenarios;

/// <summary>How a gRPC load calls its method: what it counts and times as one answer.</summary>
public enum GrpcCallKind
{
    /// <summary>One request, one response: a call each (<c>UnaryCall</c>).</summary>
    Unary,

    /// <summary>A bidirectional stream kept open, each message answered before the next goes (<c>StreamingCall</c>): a round trip each.</summary>
    PingPong,

    /// <summary>
    /// One request, then responses for as long as the stream stays open
    /// (<c>StreamingFromServer</c>): a message each, timed from the stream's previous one.
    /// </summary>
    ServerStreaming,

    /// <summary>
    /// A stream of requests the client ends, then one response (<c>StreamingFromClient</c>): each
    /// call streams <see cref="LoadDefaults.GrpcMessages"/> messages, and a call is counted and timed
    /// from its first message to its response, as a unary one.
    /// </summary>
    ClientStreaming,
}

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>One request in flight on an HTTP/2 connection: its stream, its times and what its response has shown so far.</summary>
internal struct Http2StreamSlot
{
    /// <summary>The stream's id; 0 when the slot is free.</summary>
    public int Id;

    /// <summary>Whether the request was sent in the measured window.</summary>
    public bool Measured;

    /// <summary>Where its latency is timed from: the due time in the open model, else the send.</summary>
    public long TimedFrom;

    public long SentAt;

    /// <summary>The final :status; 0 until a final (non-1xx) header block.</summary>
    public int Status;

    /// <summary>The content-length given; -1 when none.</summary>
    public long ContentLength;

    /// <summary>Body bytes received (of DATA frames, without padding).</summary>
    public long BodyLength;

    /// <summary>DATA bytes (with padding) since this client last widened the stream's window.</summary>
    public int Unacknowledged;

    /// <summary>A gRPC call's <c>grpc-status</c> (from its trailers, or a trailers-only answer); -1 until one comes.</summary>
    public int GrpcStatus;

    /// <summary>A request (or a ping-pong stream's message) is sent and not yet answered: what a lost connection loses.</summary>
    public bool InFlight;

    /// <summary>A ping-pong stream: what the stream's own flow-control window lets this client send.</summary>
    public long SendWindow;

    /// <summary>A ping-pong stream: its next message is due but waits for a window or room to write it.</summary>
    public bool Due;

    /// <summary>gRPC: the length the answer message's 5-byte prefix declares, read as its bytes come.</summary>
    public uint Declared;

    /// <summary>gRPC: the answer's message has the compressed flag set.</summary>
    public bool Compressed;

    /// <summary>A header block or body that cannot be a good response (a missing status, a body past the validator's limit).</summary>
    public bool Malformed;
}

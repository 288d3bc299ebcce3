namespace Benchmarks.Load.Http;

/// <summary>
/// Counts of one connection over the measured window. Written only by its connection loop;
/// the per-second progress reads them without locks, which is fine for a progress figure.
/// </summary>
internal struct ConnectionCounters
{
    public long Sent;
    public long Good;
    public long Bad;
    public long Lost;
    public long Unfinished;
    public long ConnectErrors;
    public long ReadErrors;
    public long WriteErrors;
    public long Timeouts;
    public long BytesReceived;

    /// <summary>Open model: requests sent later than the tolerance after their due time.</summary>
    public long Late;

    /// <summary>
    /// Open model: of <see cref="Late"/>, those sent late although a connection was free for them
    /// (the load's own thread fell behind, not the pool).
    /// </summary>
    public long LateByLoad;

    /// <summary>Connections opened in the window without keep-alive (one per request).</summary>
    public long Connects;

    /// <summary>TLS handshakes completed in the window (every connection over TLS opened in it).</summary>
    public long Handshakes;

    /// <summary>Handshakes that failed (counted with the connect errors too).</summary>
    public long HandshakeErrors;

    /// <summary>Responses completed during warm-up (not counted anywhere else): the warm-up's own rate.</summary>
    public long WarmupCompleted;

    /// <summary>
    /// HTTP/2: Stopwatch ticks in the window during which the connection had a request or message
    /// to send, a stream free for it, and no room in the server's flow-control window for its body
    /// (it waited for the server's WINDOW_UPDATE).
    /// </summary>
    public long WindowWaitTicks;

    /// <summary>gRPC calls answered in the window, by status (<see cref="Protocols.Grpc.GrpcStatus"/>).</summary>
    public Protocols.Grpc.GrpcStatusCounts Grpc;

    public readonly long Errors => ConnectErrors + ReadErrors + WriteErrors + Timeouts;

    /// <summary>
    /// Counts a connect that failed in the window (a timeout, a refused or failed TCP connect, or a
    /// TLS handshake that failed) and says its cause.
    /// </summary>
    public string ConnectFailed(bool timedOut, bool handshake, System.Net.EndPoint endPoint, string message)
    {
        if (timedOut)
        {
            Timeouts++;
            return handshake ? "TLS handshake timed out" : "connect timed out";
        }

        ConnectErrors++;
        if (handshake)
        {
            HandshakeErrors++;
            return $"TLS handshake with {endPoint}: {message}";
        }

        return $"connect to {endPoint}: {message}";
    }

    public void Add(in ConnectionCounters other)
    {
        Sent += other.Sent;
        Good += other.Good;
        Bad += other.Bad;
        Lost += other.Lost;
        Unfinished += other.Unfinished;
        ConnectErrors += other.ConnectErrors;
        ReadErrors += other.ReadErrors;
        WriteErrors += other.WriteErrors;
        Timeouts += other.Timeouts;
        BytesReceived += other.BytesReceived;
        Connects += other.Connects;
        Handshakes += other.Handshakes;
        HandshakeErrors += other.HandshakeErrors;
        Late += other.Late;
        LateByLoad += other.LateByLoad;
        WindowWaitTicks += other.WindowWaitTicks;
        for (var i = 0; i < Protocols.Grpc.GrpcStatus.Count; i++)
        {
            Grpc[i] += other.Grpc[i];
        }
    }
}

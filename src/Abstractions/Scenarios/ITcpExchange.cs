namespace Benchmarks.Scenarios;

/// <summary>
/// The client's side of a request/answer protocol over TCP, one instance per load connection:
/// the TCP load writes requests with it (as many in flight as its window allows) and hands it
/// the bytes it receives, in order, to find where each answer ends and whether it is the right
/// one. Called from one connection's loop at a time; <see cref="Reset"/> when the connection is
/// made again. Must not allocate per request: the load measures the server, not the client.
/// </summary>
public interface ITcpExchange
{
    /// <summary>The most bytes one request takes (1 to 1 MiB).</summary>
    int MaxRequestSize { get; }

    /// <summary>
    /// Writes request <paramref name="number"/> (0, 1, 2, … on this connection) into
    /// <paramref name="destination"/> (<see cref="MaxRequestSize"/> bytes) and returns its length.
    /// </summary>
    int WriteRequest(long number, Span<byte> destination);

    /// <summary>
    /// Reads the answer to request <paramref name="number"/> from bytes just received (the rest of
    /// an answer begun by earlier calls, then what follows it). <paramref name="consumed"/>: the
    /// bytes that belong to this answer: all of them while it is <see cref="TcpAnswer.Incomplete"/>,
    /// up to its end when it is <see cref="TcpAnswer.Complete"/>.
    /// </summary>
    TcpAnswer Read(long number, ReadOnlySpan<byte> received, out int consumed);

    /// <summary>A new connection: forgets any answer begun on the last one.</summary>
    void Reset();
}

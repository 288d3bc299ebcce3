namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// A request's header blocks in HPACK (RFC 7541), as h2load's encoder sends a request it repeats: the
/// first on a connection adds its fields to the dynamic table (<see cref="First"/>), every later
/// one refers to them (<see cref="Repeat"/>, a byte or so a field). <see cref="Plain"/> uses no
/// dynamic table, and <see cref="Shrink"/> is it after a dynamic table size update to 0: what a
/// connection sends once the server has lowered its table below the default.
/// </summary>
/// <para><see cref="Body"/>: the request's body, sent in one DATA frame after the headers (a POST:
/// a gRPC call's framed message); null for a GET, whose HEADERS end the stream.</para>
internal sealed record Http2RequestBlocks(byte[] First, byte[] Repeat, byte[] Plain, byte[] Shrink)
{
    public byte[]? Body { get; init; }

    /// <summary>A gRPC call: an answer is good only when its trailers say <c>grpc-status: 0</c>, and every answer is counted by its status.</summary>
    public bool Grpc { get; init; }

    /// <summary>How a gRPC call goes: a ping-pong stream's DATA leaves the stream open, and the same DATA goes again for every message answered.</summary>
    public Scenarios.GrpcCallKind Kind { get; init; }
}

namespace Benchmarks.Scenarios;

/// <summary>The load a scenario gets unless the user overrides it.</summary>
/// <param name="Path">Request path, one of the scenario's routes.</param>
/// <param name="PipelineDepth">Requests written at once per connection (1 = no pipelining).</param>
/// <param name="Connections">Concurrent connections.</param>
public sealed record LoadDefaults(string Path, int PipelineDepth, int Connections)
{
    /// <summary>
    /// <see cref="Path"/> is a gRPC method (<c>/package.Service/Method</c>) and this its request
    /// message, serialized: the load calls it over HTTP/2 (h2c, or h2 over TLS) and counts every
    /// answer by its <c>grpc-status</c>. Null: an HTTP GET.
    /// </summary>
    public byte[]? GrpcMessage { get; init; }

    /// <summary>With <see cref="GrpcMessage"/>: how the load calls the method (unary, ping-pong, server streaming, client streaming).</summary>
    public GrpcCallKind GrpcKind { get; init; }

    /// <summary>
    /// Client streaming (<see cref="GrpcCallKind.ClientStreaming"/>): the request messages each
    /// call streams before it ends its side; 1 otherwise.
    /// </summary>
    public int GrpcMessages { get; init; } = 1;
}

namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// gRPC client streaming: <c>StreamingFromClient</c>, each call a stream of
/// <see cref="MessagesPerCall"/> requests the client then ends, answered by one 10-byte payload
/// once the server has read them all (as ghz's client-streaming calls, a fixed count each). The
/// load counts and times calls; its request messages a second are the calls' times that count.
/// </summary>
public sealed class GrpcClientStreamingScenario() : GrpcBenchmarkScenario("StreamingFromClient", GrpcCallKind.ClientStreaming, MessagesPerCall)
{
    /// <summary>The requests each call streams (the load's <c>--grpc-messages</c> changes it).</summary>
    public const int MessagesPerCall = 10;

    public override string Name => "grpc-client-streaming";

    public override string Description =>
        "gRPC client streaming: grpc.testing.BenchmarkService/StreamingFromClient on Grpc.AspNetCore, 10 request messages a call, then one 10-byte payload.";
}

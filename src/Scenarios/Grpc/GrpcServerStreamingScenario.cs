namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// gRPC server streaming: <c>StreamingFromServer</c>, one request per stream and then its 10-byte
/// payload sent again and again for as long as the client keeps the stream; the load counts every
/// message (messages per second) and times each from the stream's previous one.
/// </summary>
public sealed class GrpcServerStreamingScenario() : GrpcBenchmarkScenario("StreamingFromServer", GrpcCallKind.ServerStreaming)
{
    public override string Name => "grpc-server-streaming";

    public override string Description => "gRPC server streaming: grpc.testing.BenchmarkService/StreamingFromServer on Grpc.AspNetCore, " +
        "a 10-byte payload per message for as long as the stream lasts.";
}

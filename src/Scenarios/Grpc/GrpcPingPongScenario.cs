namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// gRPC streaming as aspnet/Benchmarks' ping-pong and HttpArena's streaming measure it:
/// <c>StreamingCall</c>, a bidirectional stream kept open, each message answered before the next
/// goes; the load counts and times round trips (messages per second).
/// </summary>
public sealed class GrpcPingPongScenario() : GrpcBenchmarkScenario("StreamingCall", GrpcCallKind.PingPong)
{
    public override string Name => "grpc-ping-pong";

    public override string Description =>
        "gRPC streaming ping-pong: grpc.testing.BenchmarkService/StreamingCall on Grpc.AspNetCore, a 10-byte payload per message on streams kept open.";
}

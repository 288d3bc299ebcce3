namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// gRPC unary, as aspnet/Benchmarks and HttpArena measure it: <c>UnaryCall</c>, a small request
/// and its 10-byte payload back, a call each. Served over HTTP/2: h2c, or h2 with --tls.
/// </summary>
public sealed class GrpcUnaryScenario() : GrpcBenchmarkScenario("UnaryCall", GrpcCallKind.Unary)
{
    public override string Name => "grpc-unary";

    public override string Description => "gRPC unary: grpc.testing.BenchmarkService/UnaryCall on Grpc.AspNetCore, a 10-byte payload per call.";
}

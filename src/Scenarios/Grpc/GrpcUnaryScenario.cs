using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// gRPC unary, as aspnet/Benchmarks and HttpArena measure it: gRPC's benchmark service
/// (<c>grpc.testing.BenchmarkService/UnaryCall</c>) on Grpc.AspNetCore, called with a small
/// request that asks for a 10-byte payload back. Served over HTTP/2: h2c, or h2 with --tls.
/// </summary>
public sealed class GrpcUnaryScenario : IEndpointScenario
{
    /// <summary>The method the load calls.</summary>
    public const string UnaryPath = "/grpc.testing.BenchmarkService/UnaryCall";

    /// <summary>The payload the load's request asks for, in bytes.</summary>
    public const int ResponseSize = 10;

    private static readonly string[] s_routes = [UnaryPath];

    public string Name => "grpc-unary";

    public string Description => "gRPC unary: grpc.testing.BenchmarkService/UnaryCall on Grpc.AspNetCore, a 10-byte payload per call.";

    public IReadOnlyList<string> Routes => s_routes;

    /// <summary>As aspnet/Benchmarks' gRPC unary: 64 connections, each with 1 call in flight unless --streams says more.</summary>
    public LoadDefaults Load { get; } = new(UnaryPath, PipelineDepth: 1, Connections: 64)
    {
        GrpcMessage = new SimpleRequest { ResponseSize = ResponseSize }.ToByteArray(),
    };

    public void AddServices(IServiceCollection services) => services.AddGrpc();

    public void MapEndpoints(IEndpointRouteBuilder endpoints) => endpoints.MapGrpcService<BenchmarkServer>();

    /// <summary>The answer is the framed response message, byte for byte: a payload of 10 zero bytes.</summary>
    public IResponseValidator CreateValidator() => new GrpcMessageValidator(new SimpleResponse { Payload = new Payload { Body = ByteString.CopyFrom(new byte[ResponseSize]) } }.ToByteArray());
}

using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Benchmarks.Scenarios.Grpc;

/// <summary>
/// What the gRPC scenarios share: gRPC's benchmark service on Grpc.AspNetCore, a request asking
/// for a <see cref="ResponseSize"/>-byte payload, and an answer checked byte for byte. Each
/// scenario names the method its load calls and how (unary, ping-pong, server or client streaming).
/// </summary>
public abstract class GrpcBenchmarkScenario : IEndpointScenario
{
    /// <summary>The service's path: each scenario's method is under it.</summary>
    public const string ServicePath = "/grpc.testing.BenchmarkService/";

    /// <summary>The payload the load's request asks for, in bytes.</summary>
    public const int ResponseSize = 10;

    private static readonly string[] s_routes =
    [
        ServicePath
            + "UnaryCall", ServicePath
            + "StreamingCall", ServicePath
            + "StreamingFromServer", ServicePath
            + "StreamingFromClient", ServicePath
            + "StreamingBothWays",
    ];

    private protected GrpcBenchmarkScenario(string method, GrpcCallKind kind, int messages = 1) =>
        Load = new(ServicePath + method, PipelineDepth: 1, Connections: 64)
        {
            GrpcMessage = new SimpleRequest { ResponseSize = ResponseSize }.ToByteArray(),
            GrpcKind = kind,
            GrpcMessages = messages,
        };

    public abstract string Name { get; }

    public abstract string Description { get; }

    /// <summary>Every method of the service: the load calls one, other clients may call any.</summary>
    public IReadOnlyList<string> Routes => s_routes;

    /// <summary>As aspnet/Benchmarks' gRPC scenarios: 64 connections, each with 1 call in flight unless --streams says more.</summary>
    public LoadDefaults Load { get; }

    public void AddServices(IServiceCollection services) => services.AddGrpc();

    public void MapEndpoints(IEndpointRouteBuilder endpoints) => endpoints.MapGrpcService<BenchmarkServer>();

    /// <summary>An answer message is the framed response, byte for byte: a payload of 10 zero bytes.</summary>
    public IResponseValidator CreateValidator() =>
        new GrpcMessageValidator(new SimpleResponse { Payload = new Payload { Body = ByteString.CopyFrom(new byte[ResponseSize]) } }.ToByteArray());
}

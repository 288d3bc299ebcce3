using Benchmarks.Scenarios;
using Benchmarks.Servers;

namespace Benchmarks.Host.Runs;

/// <summary>The wire a scenario is served and checked over, from the one asked for: gRPC is HTTP/2's, so plain HTTP/1.1 becomes h2c (and HTTPS h2).</summary>
internal static class ScenarioWire
{
    public static HttpWire For(HttpWire asked, IScenario scenario)
    {
        ArgumentNullException.ThrowIfNull(asked);
        ArgumentNullException.ThrowIfNull(scenario);
        return scenario.Load.GrpcMessage is not null && asked.Protocol == HttpWireProtocol.Http1 ? asked with { Protocol = HttpWireProtocol.Http2 } : asked;
    }
}

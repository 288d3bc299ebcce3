using Benchmarks.Scenarios;

namespace Benchmarks.Scenarios.Plaintext;

/// <summary>TechEmpower plaintext as it is run there: 16 requests per write.</summary>
public sealed class PipelinedScenario : IScenario
{
    private static readonly string[] s_routes = ["/plaintext"];

    public string Name => "pipelined";

    public string Description => "TechEmpower plaintext with HTTP/1.1 pipelining, 16 requests per write (as wrk's pipeline.lua).";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/plaintext", PipelineDepth: 16, Connections: 256);

    public void Handle(in ScenarioRequest request, IScenarioResponse response) => PlaintextScenario.Write(response);

    public IResponseValidator CreateValidator() => new ExactBodyValidator(PlaintextScenario.Body);
}

using System.Buffers;
using Benchmarks.Scenarios;

namespace Benchmarks.Verdicts.Outside;

/// <summary>A plain-text answer after a fault of its own: the shape every outside fault shares.</summary>
public abstract class OutsideFault(string name, string description) : IScenario
{
    private static readonly byte[] s_body = "Hello from outside."u8.ToArray();

    public string Name { get; } = name;

    public string Description { get; } = description;

    public IReadOnlyList<string> Routes { get; } = [$"/{name}"];

    public LoadDefaults Load { get; } = new($"/{name}", PipelineDepth: 1, Connections: 64);

    public void Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        Fault();
        response.ContentType = HeaderValue.TextPlain;
        response.Body.Write(s_body);
    }

    public IResponseValidator? CreateValidator() => null;

    /// <summary>What each request does wrong.</summary>
    protected abstract void Fault();
}

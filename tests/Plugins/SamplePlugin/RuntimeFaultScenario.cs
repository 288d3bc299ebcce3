using System.Buffers;
using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// A greeting served with a fault inside the runtime, for the verdicts that name it: each request
/// does <see cref="Fault"/> first, then answers as <see cref="GreetingScenario"/> does.
/// </summary>
public abstract class RuntimeFaultScenario : IScenario
{
    private readonly string[] _routes;

    protected RuntimeFaultScenario(string name)
    {
        Name = name;
        _routes = [$"/{name}"];
        Load = new($"/{name}", PipelineDepth: 1, Connections: 64);
    }

    public string Name { get; }

    public abstract string Description { get; }

    public IReadOnlyList<string> Routes => _routes;

    public LoadDefaults Load { get; }

    public void Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        Fault();
        response.ContentType = HeaderValue.TextPlain;
        response.Body.Write(GreetingScenario.Body);
    }

    public IResponseValidator? CreateValidator() => null;

    /// <summary>What each request does wrong.</summary>
    protected abstract void Fault();
}

namespace Benchmarks.Scenarios.Database;

/// <summary>
/// What TechEmpower's database tests share: one route, the <c>hello_world</c> schema, and a load of
/// 256 connections with one request in flight each; a test says what it reads and how it answers.
/// </summary>
public abstract class HelloWorldScenario(string name, string route, string loadPath, DatabaseTest test, string description) : IDatabaseScenario
{
    private readonly string[] _routes = [route];

    public string Name => name;

    public string Description => description;

    public IReadOnlyList<string> Routes => _routes;

    public DatabaseTest Test => test;

    public string SchemaScript => HelloWorldSchema.Script;

    public LoadDefaults Load { get; } = new(loadPath, PipelineDepth: 1, Connections: 256);

    public abstract ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken);

    public abstract IResponseValidator CreateValidator();
}

using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower single query: one random World row by id, as a JSON object, at /db.</summary>
public sealed class DbScenario : IDatabaseScenario
{
    private static readonly string[] s_routes = ["/db"];

    public string Name => "db";

    public string Description => "TechEmpower single query: one random World row (id 1-10000) as JSON at /db, over Npgsql.";

    public IReadOnlyList<string> Routes => s_routes;

    public DatabaseTest Test => DatabaseTest.SingleQuery;

    public string SchemaScript => HelloWorldSchema.Script;

    public LoadDefaults Load { get; } = new("/db", PipelineDepth: 1, Connections: 256);

    /// <summary>Every server model awaits <see cref="HandleAsync"/>; this path only declares the content type.</summary>
    public void Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.StatusCode = 500;
        response.ContentType = HeaderValue.ApplicationJson;
    }

    public async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        var world = await WorldQueries.ReadOneAsync(WorldStore.RandomId(), WorldQueries.NotCancelled(cancellationToken));
        response.ContentType = HeaderValue.ApplicationJson;
        using var writer = new Utf8JsonWriter(response.Body);
        JsonSerializer.Serialize(writer, world, DatabaseJsonContext.Default.World);
    }

    public IResponseValidator CreateValidator() => new WorldJsonValidator(array: false);
}

using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower multiple queries: <c>?queries=N</c> random World rows (N clamped to 1..500), each by its own query, sent as one batch.</summary>
public sealed class QueriesScenario : IDatabaseScenario
{
    private static readonly string[] s_routes = ["/queries"];

    public string Name => "queries";

    public string Description => "TechEmpower multiple queries: ?queries=N (1-500) random World rows as a JSON array at /queries, one query each, batched.";

    public IReadOnlyList<string> Routes => s_routes;

    public DatabaseTest Test => DatabaseTest.MultipleQueries;

    public string SchemaScript => HelloWorldSchema.Script;

    public LoadDefaults Load { get; } = new("/queries?queries=20", PipelineDepth: 1, Connections: 256);

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
        var ids = WorldQueries.RandomIds(QueryCount.Parse(request.QueryValue("queries")));
        World[] worlds;
        await using (var connection = await WorldStore.Source.OpenConnectionAsync(cancellationToken))
        {
            worlds = await WorldQueries.ReadManyAsync(connection, ids, WorldQueries.NotCancelled(cancellationToken));
        }

        response.ContentType = HeaderValue.ApplicationJson;
        using var writer = new Utf8JsonWriter(response.Body);
        JsonSerializer.Serialize(writer, worlds, DatabaseJsonContext.Default.WorldArray);
    }

    public IResponseValidator CreateValidator() => new WorldJsonValidator(array: true);
}

using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower multiple queries: <c>?queries=N</c> random World rows (N clamped to 1..500), each by its own query, sent as one batch.</summary>
public sealed class QueriesScenario() : HelloWorldScenario(
    "queries", "/queries", "/queries?queries=20", DatabaseTest.MultipleQueries,
    "TechEmpower multiple queries: ?queries=N (1-500) random World rows as a JSON array at /queries, one query each, batched.")
{
    public override async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
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

    public override IResponseValidator CreateValidator() => new WorldJsonValidator(array: true);
}

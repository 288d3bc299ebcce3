using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower single query: one random World row by id, as a JSON object, at /db.</summary>
public sealed class DbScenario() : HelloWorldScenario(
    "db", "/db", "/db", DatabaseTest.SingleQuery,
    "TechEmpower single query: one random World row (id 1-10000) as JSON at /db, over Npgsql.")
{
    public override async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        var world = await WorldQueries.ReadOneAsync(WorldStore.RandomId(), WorldQueries.NotCancelled(cancellationToken));
        response.ContentType = HeaderValue.ApplicationJson;
        using var writer = new Utf8JsonWriter(response.Body);
        JsonSerializer.Serialize(writer, world, DatabaseJsonContext.Default.World);
    }

    public override IResponseValidator CreateValidator() => new WorldJsonValidator(array: false);
}

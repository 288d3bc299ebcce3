using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>
/// TechEmpower updates: <c>?queries=N</c> World rows read (one query each, batched), each given a
/// new random number (never the one it had, so every reported row changed), written back in one
/// bulk update, and returned as the JSON array of what was written.
/// </summary>
public sealed class UpdatesScenario() : HelloWorldScenario(
    "updates", "/updates", "/updates?queries=20", DatabaseTest.Updates,
    "TechEmpower updates: ?queries=N (1-500) World rows read, given new random numbers, written in one bulk update, at /updates.")
{
    public override async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        var ids = WorldQueries.DistinctRandomIds(QueryCount.Parse(request.QueryValue("queries")));
        World[] worlds;
        await using (var connection = await WorldStore.Source.OpenConnectionAsync(cancellationToken))
        {
            worlds = await WorldQueries.ReadManyAsync(connection, ids, WorldQueries.NotCancelled(cancellationToken));
            for (var i = 0; i < worlds.Length; i++)
            {
                var number = WorldStore.RandomId();
                while (number == worlds[i].RandomNumber)
                {
                    number = WorldStore.RandomId();
                }

                worlds[i] = worlds[i] with { RandomNumber = number };
            }

            await WorldQueries.UpdateAsync(connection, worlds, WorldQueries.NotCancelled(cancellationToken));
        }

        response.ContentType = HeaderValue.ApplicationJson;
        using var writer = new Utf8JsonWriter(response.Body);
        JsonSerializer.Serialize(writer, worlds, DatabaseJsonContext.Default.WorldArray);
    }

    public override IResponseValidator CreateValidator() => new WorldJsonValidator(array: true);
}

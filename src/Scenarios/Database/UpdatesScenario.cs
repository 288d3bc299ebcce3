using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>
/// TechEmpower updates: <c>?queries=N</c> World rows read (one query each, batched), each given a
/// new random number (never the one it had, so every reported row changed), written back in one
/// bulk update, and returned as the JSON array of what was written.
/// </summary>
public sealed class UpdatesScenario : IDatabaseScenario
{
    private static readonly string[] s_routes = ["/updates"];

    public string Name => "updates";

    public string Description => "TechEmpower updates: ?queries=N (1-500) World rows read, given new random numbers, written in one bulk update, at /updates.";

    public IReadOnlyList<string> Routes => s_routes;

    public DatabaseTest Test => DatabaseTest.Updates;

    public string SchemaScript => HelloWorldSchema.Script;

    public LoadDefaults Load { get; } = new("/updates?queries=20", PipelineDepth: 1, Connections: 256);

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

    public IResponseValidator CreateValidator() => new WorldJsonValidator(array: true);
}

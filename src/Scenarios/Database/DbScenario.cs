using System.Data;
using System.Text.Json;

namespace Benchmarks.Scenarios.Database;

/// <summary>TechEmpower single query: one random World row by id, as a JSON object, at /db.</summary>
public sealed class DbScenario : IAsyncScenario
{
    private static readonly string[] s_routes = ["/db"];

    public string Name => "db";

    public string Description => "TechEmpower single query: one random World row (id 1-10000) as JSON at /db, over Npgsql (BENCHMARKS_DATABASE).";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/db", PipelineDepth: 1, Connections: 256);

    /// <summary>The synchronous path is not used: every server model awaits <see cref="HandleAsync"/>.</summary>
    public void Handle(in ScenarioRequest request, IScenarioResponse response) => response.StatusCode = 500;

    public async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        await using var command = WorldStore.Source.CreateCommand("SELECT id, randomnumber FROM world WHERE id = $1");
        command.Parameters.Add(new Npgsql.NpgsqlParameter<int> { TypedValue = WorldStore.RandomId() });
        await using var reader = await command.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken);
        await reader.ReadAsync(cancellationToken);
        var world = new World(reader.GetInt32(0), reader.GetInt32(1));
        response.ContentType = HeaderValue.ApplicationJson;
        using var writer = new Utf8JsonWriter(response.Body);
        JsonSerializer.Serialize(writer, world, DatabaseJsonContext.Default.World);
    }

    public IResponseValidator? CreateValidator() => null;
}

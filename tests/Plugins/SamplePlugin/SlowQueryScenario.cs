using System.Buffers;
using Benchmarks.Scenarios;
using Npgsql;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// Test double: a database whose answers are slow while nothing is busy. Each request waits on a
/// query that sleeps 5 ms in PostgreSQL (<c>pg_sleep</c>: a backend waiting, as on a lock or a
/// disk), then answers with the greeting; 16 connections keep 16 such queries in flight.
/// </summary>
public sealed class SlowQueryScenario : IDatabaseScenario
{
    private static readonly string[] s_routes = ["/slow-query"];

    private static readonly Lazy<NpgsqlDataSource> s_source = new(() =>
        NpgsqlDataSource.Create(Environment.GetEnvironmentVariable(IDatabaseScenario.ConnectionVariable) is { Length: > 0 } text
            ? text
            : throw new InvalidOperationException($"{IDatabaseScenario.ConnectionVariable} is not set")));

    public string Name => "slow-query";

    public string Description => "Test double: a greeting after a query that sleeps 5 ms in PostgreSQL.";

    public IReadOnlyList<string> Routes => s_routes;

    public DatabaseTest Test => DatabaseTest.SingleQuery;

    public string SchemaScript =>
        "CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL); CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) " +
        "NOT NULL);";

    public LoadDefaults Load { get; } = new("/slow-query", PipelineDepth: 1, Connections: 16);

    public async ValueTask HandleAsync(ScenarioCall request, IScenarioResponse response, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(response);
        await using (var command = s_source.Value.CreateCommand("SELECT pg_sleep(0.005)"))
        {
            await command.ExecuteNonQueryAsync(CancellationToken.None);
        }

        response.ContentType = HeaderValue.TextPlain;
        response.Body.Write(GreetingScenario.Body);
    }

    public IResponseValidator? CreateValidator() => null;
}

using System.Net.Http.Json;
using Benchmarks.Tests.Support;
using Npgsql;

namespace Benchmarks.Tests.Database;

/// <summary>The database scenarios against a real PostgreSQL holding TechEmpower's World table.</summary>
public sealed class DatabaseScenarioTests
{
    [Fact]
    public async Task Db_answers_a_random_world_row_as_it_is_in_the_database()
    {
        var postgres = await PostgresServer.SharedAsync();
        var database = await postgres.CreateDatabaseAsync();
        var rows = new Dictionary<int, int>();
        await using (var connection = new NpgsqlConnection(database))
        {
            await connection.OpenAsync();
            await using var create = new NpgsqlCommand("CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL); INSERT INTO world SELECT i, 1 + floor(random() * 10000)::int FROM generate_series(1, 10000) i", connection);
            await create.ExecuteNonQueryAsync();
            await using var read = new NpgsqlCommand("SELECT id, randomnumber FROM world", connection);
            await using var reader = await read.ExecuteReaderAsync();
            while (await reader.ReadAsync())
            {
                rows[reader.GetInt32(0)] = reader.GetInt32(1);
            }
        }

        await using var serve = await ServeProcess.StartAsync("kestrel", "db", environment: new Dictionary<string, string> { ["BENCHMARKS_DATABASE"] = database });
        using var client = new HttpClient();
        var seen = new HashSet<int>();
        for (var i = 0; i < 20; i++)
        {
            using var response = await client.GetAsync(new Uri($"http://127.0.0.1:{serve.Port}/db"));
            Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
            var world = await response.Content.ReadFromJsonAsync<WorldRow>();
            Assert.NotNull(world);
            Assert.InRange(world.Id, 1, 10_000);
            Assert.Equal(rows[world.Id], world.RandomNumber);
            seen.Add(world.Id);
        }

        Assert.True(seen.Count > 10, "the ids are random");
    }

    private sealed record WorldRow(int Id, int RandomNumber);
}

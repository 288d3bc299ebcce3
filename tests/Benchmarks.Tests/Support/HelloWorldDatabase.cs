using Npgsql;

namespace Benchmarks.Tests.Support;

/// <summary>A fresh database on the shared test PostgreSQL with World and Fortune tables written by the test itself (not the product's schema).</summary>
internal static class HelloWorldDatabase
{
    public static IReadOnlyList<(int Id, string Message)> Fortunes { get; } =
    [
        (1, "fortune: No such file or directory"),
        (2, "A computer scientist is someone who fixes things that aren't broken."),
        (7, "Any program that runs right is obsolete."),
        (11, "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"),
        (12, "\u30d5\u30ec\u30fc\u30e0\u30ef\u30fc\u30af\u306e\u30d9\u30f3\u30c1\u30de\u30fc\u30af"),
        (13, "Fish & chips: 'quoted' > unquoted"),
    ];

    public static async Task<string> CreateAsync()
    {
        var postgres = await PostgresServer.SharedAsync();
        var database = await postgres.CreateDatabaseAsync();
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync();
        await using var create = new NpgsqlCommand(
            "CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL); INSERT INTO world SELECT i, 1 + floor(random() " +
            "* 10000)::int FROM generate_series(1, 10000) i; CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) NOT NULL)",
            connection);
        await create.ExecuteNonQueryAsync();
        foreach (var (id, message) in Fortunes)
        {
            await using var insert = new NpgsqlCommand("INSERT INTO fortune VALUES ($1, $2)", connection);
            insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = id });
            insert.Parameters.Add(new NpgsqlParameter<string> { TypedValue = message });
            await insert.ExecuteNonQueryAsync();
        }

        return database;
    }

    public static async Task<Dictionary<int, int>> WorldsAsync(string database)
    {
        var rows = new Dictionary<int, int>();
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync();
        await using var read = new NpgsqlCommand("SELECT id, randomnumber FROM world", connection);
        await using var reader = await read.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            rows[reader.GetInt32(0)] = reader.GetInt32(1);
        }

        return rows;
    }
}

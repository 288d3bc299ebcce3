using Benchmarks.Host.Store;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;
using Npgsql;

namespace Benchmarks.Tests.Store;

/// <summary>The PostgreSQL store against a real server (eng/postgres.sh, test port 25432).</summary>
public sealed class PostgresRunStoreTests
{
    [Fact]
    public async Task A_run_round_trips_with_every_field_and_its_rows()
    {
        var database = await (await PostgresServer.SharedAsync()).CreateDatabaseAsync();
        await using var store = new PostgresRunStore(database);
        var run = SampleRuns.Create(labels: ["before", "lab"]);
        run.Measurements["odd/value"] = double.NaN;

        Assert.True(await store.SaveAsync(run, CancellationToken.None));
        var back = await store.FindAsync(run.Id, CancellationToken.None);

        Assert.NotNull(back);
        Assert.Equal(RunDocumentJson.Serialize(run), RunDocumentJson.Serialize(back));
        Assert.Equal(run.Id, (await store.FindAsync(run.Id[..10], CancellationToken.None))!.Id);
        Assert.Equal(run.Measurements.Count, await Count(database, "measurements"));
        Assert.Equal(run.Samples.Sum(s => s.Values.Count), await Count(database, "samples"));
        Assert.Equal(run.Metadata.Count, await Count(database, "measurement_metadata"));
    }

    [Fact]
    public async Task Queries_filter_by_scenario_server_os_label_and_date_and_a_second_save_changes_nothing()
    {
        var database = await (await PostgresServer.SharedAsync()).CreateDatabaseAsync();
        await using var store = new PostgresRunStore(database);
        var day = new DateTimeOffset(2026, 11, 1, 0, 0, 0, TimeSpan.Zero);
        var a = SampleRuns.Create(labels: ["x"], startedAt: day);
        var b = SampleRuns.Create(server: "sockets", startedAt: day.AddDays(1));
        var c = SampleRuns.Create(scenario: "json", os: "Windows", labels: ["x"], startedAt: day.AddDays(2));
        foreach (var run in new[] { c, a, b })
        {
            await store.SaveAsync(run, CancellationToken.None);
        }

        Assert.False(await store.SaveAsync(a, CancellationToken.None));
        Assert.Equal(3, await Count(database, "runs"));
        Assert.Equal([a.Id, b.Id, c.Id], (await store.QueryAsync(RunQuery.All, CancellationToken.None)).Runs.Select(r => r.Id));
        Assert.Equal([a.Id, b.Id], (await store.QueryAsync(new RunQuery { Scenario = "pipelined" }, CancellationToken.None)).Runs.Select(r => r.Id));
        Assert.Equal([b.Id], (await store.QueryAsync(new RunQuery { Server = "sockets" }, CancellationToken.None)).Runs.Select(r => r.Id));
        Assert.Equal([c.Id], (await store.QueryAsync(new RunQuery { Os = "windows" }, CancellationToken.None)).Runs.Select(r => r.Id));
        Assert.Equal([a.Id, c.Id], (await store.QueryAsync(new RunQuery { Label = "x" }, CancellationToken.None)).Runs.Select(r => r.Id));
        Assert.Equal([b.Id],
            (await store.QueryAsync(new RunQuery { Since = day.AddHours(12), Until = day.AddDays(2) }, CancellationToken.None)).Runs.Select(r => r.Id));
    }

    [Fact]
    public async Task Migration_builds_an_empty_database_once_and_a_rerun_changes_nothing()
    {
        var database = await (await PostgresServer.SharedAsync()).CreateDatabaseAsync();
        await using var store = new PostgresRunStore(database);

        Assert.Equal(PostgresMigrations.All.Count, await store.MigrateAsync(CancellationToken.None));
        Assert.Equal(0, await store.MigrateAsync(CancellationToken.None));
        await using var again = new PostgresRunStore(database);
        Assert.Equal(0, await again.MigrateAsync(CancellationToken.None));
        Assert.Equal(PostgresMigrations.All.Count, await Count(database, "schema_version"));
    }

    [Fact]
    public async Task Concurrent_writers_and_migrators_lose_nothing()
    {
        var database = await (await PostgresServer.SharedAsync()).CreateDatabaseAsync();
        var runs = Enumerable.Range(0, 60).Select(i => SampleRuns.Create(rps: i)).ToList();

        // Six processes' worth of stores, each migrating a fresh database and writing at once.
        await Task.WhenAll(Enumerable.Range(0, 6).Select(async writer =>
        {
            await using var store = new PostgresRunStore(database);
            foreach (var run in runs.Where((_, i) => i % 6 == writer))
            {
                Assert.True(await store.SaveAsync(run, CancellationToken.None));
            }
        }));

        Assert.Equal(60, await Count(database, "runs"));
        Assert.Equal(60 * runs[0].Measurements.Count, await Count(database, "measurements"));
        Assert.Equal(PostgresMigrations.All.Count, await Count(database, "schema_version"));
    }

    [Fact]
    public async Task A_database_that_is_not_there_is_one_clear_error()
    {
        await using var store = new PostgresRunStore("Host=127.0.0.1;Port=1;Username=postgres;Timeout=3");
        var error = await Assert.ThrowsAsync<StoreUnavailableException>(() => store.SaveAsync(SampleRuns.Create(), CancellationToken.None));
        Assert.Contains("127.0.0.1:1", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_series_reads_only_what_it_follows_and_a_database_of_schema_2_gains_its_columns()
    {
        // A database as schema 2 left it, with a run in it.
        var database = await (await PostgresServer.SharedAsync()).CreateDatabaseAsync();
        await Execute(database,
            "CREATE TABLE schema_version (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
        foreach (var (version, description, sql) in PostgresMigrations.All.Take(2))
        {
            await Execute(database, sql);
            await Execute(database, $"INSERT INTO schema_version (version, description) VALUES ({version}, '{description}')");
        }

        var at = new DateTimeOffset(2026, 11, 1, 2, 0, 0, TimeSpan.Zero);
        var old = SampleRuns.Create(startedAt: at);
        old.Environment.Dependencies = new(StringComparer.Ordinal) { ["Npgsql"] = "10.0.0" };
        await Execute(database, "INSERT INTO runs (id, scenario, server, load, os, machine, status, started_at, duration_seconds, labels, error, document) " +
            "VALUES ($1, 'pipelined', 'kestrel', 'http', 'Linux', 'bench-1', 'Succeeded', $3, 1, ARRAY[]::text[], NULL, $2::jsonb)",
            old.Id, RunDocumentJson.Serialize(old), at);
        await Execute(database,
            "INSERT INTO measurements (run_id, name, value) SELECT $1, key, value::float8 FROM jsonb_each_text(($2::jsonb)->'measurements')", old.Id,
            RunDocumentJson.Serialize(old));
        await Execute(database,
            "INSERT INTO measurement_metadata (run_id, name, description, unit, aggregate, higher_is_better) SELECT $1, key, value->>'description', " +
            "value->>'unit', value->>'aggregate', (value->>'higherIsBetter')::boolean FROM jsonb_each(($2::jsonb)->'metadata')",
            old.Id, RunDocumentJson.Serialize(old));

        // Opened by this version: migrated (the old run's series fields filled in), and a new run saved beside it.
        await using var store = new PostgresRunStore(database);
        var fresh = SampleRuns.Create(startedAt: at.AddDays(1));
        fresh.Parameters["protocol"] = "h2";
        fresh.Environment.Dependencies = new(StringComparer.Ordinal) { ["Npgsql"] = "10.0.3" };
        Assert.True(await store.SaveAsync(fresh, CancellationToken.None));

        HashSet<string> names = ["http/rps/mean", "http/latency/99", "not/reported"];
        var read = (await store.QuerySeriesAsync(new RunQuery(), names, CancellationToken.None)).Runs;
        Assert.Equal([old.Id, fresh.Id], read.Select(r => r.Id));
        foreach (var (run, whole) in read.Zip([old, fresh]))
        {
            var expected = whole.ForSeries(names);
            Assert.Equal(RunDocumentJson.Serialize(expected), RunDocumentJson.Serialize(run));
            Assert.Null(run.Environment.Dependencies);
            Assert.Empty(run.Samples);
            Assert.Equal(["http/latency/99", "http/rps/mean"], run.Measurements.Keys);
        }

        // The runs around a change are read again whole, at once: dependencies and all, an unknown id left out.
        var again = await store.GetAsync([fresh.Id, old.Id, "0123456789abcdef0123456789abcdef"], CancellationToken.None);
        Assert.Equal(new[] { old.Id, fresh.Id }.Order(StringComparer.Ordinal), again.Select(r => r.Id).Order(StringComparer.Ordinal));
        Assert.Equal(["10.0.0", "10.0.3"], again.Select(r => r.Environment.Dependencies!["Npgsql"]).Order(StringComparer.Ordinal));

        // The JSON files give the same view.
        var folder = TestPaths.NewTempDirectory();
        var files = new JsonFileRunStore(folder);
        await files.SaveAsync(old, CancellationToken.None);
        await files.SaveAsync(fresh, CancellationToken.None);
        Assert.Equal(read.Select(RunDocumentJson.Serialize),
            (await files.QuerySeriesAsync(new RunQuery(), names, CancellationToken.None)).Runs.Select(RunDocumentJson.Serialize));
        Assert.Equal(["10.0.0", "10.0.3"], (await files.GetAsync([fresh.Id, old.Id, "0123456789abcdef0123456789abcdef"],
            CancellationToken.None)).Select(r => r.Environment.Dependencies!["Npgsql"]).Order(StringComparer.Ordinal));
    }

    private static async Task Execute(string database, string sql, params object[] values)
    {
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var value in values)
        {
            command.Parameters.Add(new() { Value = value });
        }

        await command.ExecuteNonQueryAsync();
    }

    private static async Task<long> Count(string database, string table)
    {
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand($"SELECT count(*) FROM {table}", connection);
        return (long)(await command.ExecuteScalarAsync())!;
    }
}

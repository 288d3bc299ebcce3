using System.Text;
using Benchmarks.Host.Documents;
using Npgsql;
using NpgsqlTypes;

namespace Benchmarks.Host.Store;

/// <summary>
/// Runs in PostgreSQL: one row per run (the filter columns and the whole document as <c>jsonb</c>),
/// its measurements, its metadata and its per-second samples in their own tables, all written in one
/// transaction. The schema is created and migrated by <see cref="MigrateAsync"/>.
/// </summary>
internal sealed class PostgresRunStore : IRunStore, IAsyncDisposable
{
    // Serializes migrators across processes: pg_advisory_xact_lock on a fixed key.
    private const long MigrationLockKey = 0x62656e6368;

    private readonly NpgsqlDataSource _dataSource;
    private bool _migrated;

    public PostgresRunStore(string connectionString)
    {
        NpgsqlConnectionStringBuilder builder;
        try
        {
            builder = new NpgsqlConnectionStringBuilder(connectionString);
        }
        catch (ArgumentException ex)
        {
            throw new StoreUnavailableException($"'{connectionString}' is not a PostgreSQL connection string: {ex.Message}", ex);
        }

        Description = $"PostgreSQL {builder.Host}:{builder.Port}/{builder.Database ?? builder.Username}";
        _dataSource = NpgsqlDataSource.Create(builder);
    }

    public string Description { get; }

    /// <summary>Brings the schema to the latest version; safe to run again and from several processes at once. Returns the migrations applied.</summary>
    public Task<int> MigrateAsync(CancellationToken cancellationToken) => GuardAsync(() => MigrateCoreAsync(cancellationToken));

    private async Task<int> MigrateCoreAsync(CancellationToken cancellationToken)
    {
        await using var connection = await OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await Execute(connection, transaction, $"SELECT pg_advisory_xact_lock({MigrationLockKey})", cancellationToken);
        await Execute(connection, transaction, """
            CREATE TABLE IF NOT EXISTS schema_version (
                version integer PRIMARY KEY,
                description text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """, cancellationToken);
        await using var select = new NpgsqlCommand("SELECT coalesce(max(version), 0) FROM schema_version", connection, transaction);
        var current = (int)(await select.ExecuteScalarAsync(cancellationToken))!;
        if (current > PostgresMigrations.Latest)
        {
            throw new StoreUnavailableException($"{Description} has schema version {current}, newer than this tool knows ({PostgresMigrations.Latest}): " +
                $"update the tool");
        }

        var applied = 0;
        foreach (var (version, description, sql) in PostgresMigrations.All.Where(m => m.Version > current))
        {
            await Execute(connection, transaction, sql, cancellationToken);
            await using var record = new NpgsqlCommand("INSERT INTO schema_version (version, description) VALUES ($1, $2)", connection, transaction);
            record.Parameters.Add(new() { Value = version });
            record.Parameters.Add(new() { Value = description });
            await record.ExecuteNonQueryAsync(cancellationToken);
            applied++;
        }

        await transaction.CommitAsync(cancellationToken);
        _migrated = true;
        return applied;
    }

    public Task<bool> SaveAsync(RunDocument document, CancellationToken cancellationToken) => GuardAsync(() => SaveCoreAsync(document, cancellationToken));

    private async Task<bool> SaveCoreAsync(RunDocument document, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(document);
        await EnsureMigratedAsync(cancellationToken);
        await using var connection = await OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await using (var run = new NpgsqlCommand($"""
            INSERT INTO runs (id, scenario, server, load, os, machine, status, started_at, duration_seconds, labels, error, document, series_fields)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, {PostgresMigrations.SeriesFields("$12::jsonb")})
            ON CONFLICT (id) DO NOTHING
            """, connection, transaction))
        {
            run.Parameters.Add(new() { Value = document.Id });
            run.Parameters.Add(new() { Value = document.Scenario });
            run.Parameters.Add(new() { Value = document.Server });
            run.Parameters.Add(new() { Value = document.Load });
            run.Parameters.Add(new() { Value = document.Environment.Os });
            run.Parameters.Add(new() { Value = document.Environment.MachineName });
            run.Parameters.Add(new() { Value = document.Status.ToString() });
            run.Parameters.Add(new() { Value = document.StartedAt.ToUniversalTime() });
            run.Parameters.Add(new() { Value = document.DurationSeconds });
            run.Parameters.Add(new() { Value = document.Labels.ToArray() });
            run.Parameters.Add(new() { Value = (object?)document.Error ?? DBNull.Value, NpgsqlDbType = NpgsqlDbType.Text });
            run.Parameters.Add(new() { Value = RunDocumentJson.Serialize(document), NpgsqlDbType = NpgsqlDbType.Jsonb });
            if (await run.ExecuteNonQueryAsync(cancellationToken) == 0)
            {
                return false;
            }
        }

        await using (var measurements = new NpgsqlCommand("INSERT INTO measurements (run_id, name, value) SELECT $1, * FROM unnest($2::text[], $3::float8[])",
            connection, transaction))
        {
            measurements.Parameters.Add(new() { Value = document.Id });
            measurements.Parameters.Add(new() { Value = document.Measurements.Keys.ToArray() });
            measurements.Parameters.Add(new() { Value = document.Measurements.Values.ToArray() });
            await measurements.ExecuteNonQueryAsync(cancellationToken);
        }

        await using (var metadata = new NpgsqlCommand("""
            INSERT INTO measurement_metadata (run_id, name, description, unit, aggregate, higher_is_better)
            SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[])
            """, connection, transaction))
        {
            metadata.Parameters.Add(new() { Value = document.Id });
            metadata.Parameters.Add(new() { Value = document.Metadata.Keys.ToArray() });
            metadata.Parameters.Add(new() { Value = document.Metadata.Values.Select(m => m.Description).ToArray() });
            metadata.Parameters.Add(new() { Value = document.Metadata.Values.Select(m => m.Unit).ToArray() });
            metadata.Parameters.Add(new() { Value = document.Metadata.Values.Select(m => m.Aggregate).ToArray() });
            metadata.Parameters.Add(new() { Value = document.Metadata.Values.Select(m => m.HigherIsBetter).ToArray() });
            await metadata.ExecuteNonQueryAsync(cancellationToken);
        }

        await using (var samples = new NpgsqlCommand(
            "INSERT INTO samples (run_id, t, name, value) SELECT $1, * FROM unnest($2::float8[], $3::text[], $4::float8[])", connection, transaction))
        {
            var rows = document.Samples.SelectMany(s => s.Values.Select(v => (s.Time, v.Key, v.Value))).ToList();
            samples.Parameters.Add(new() { Value = document.Id });
            samples.Parameters.Add(new() { Value = rows.Select(r => r.Time).ToArray() });
            samples.Parameters.Add(new() { Value = rows.Select(r => r.Key).ToArray() });
            samples.Parameters.Add(new() { Value = rows.Select(r => r.Value).ToArray() });
            await samples.ExecuteNonQueryAsync(cancellationToken);
        }

        await transaction.CommitAsync(cancellationToken);
        return true;
    }

    public Task<IReadOnlyList<RunDocument>> GetAsync(IReadOnlyCollection<string> ids, CancellationToken cancellationToken) => GuardAsync(async () =>
    {
        ArgumentNullException.ThrowIfNull(ids);
        await EnsureMigratedAsync(cancellationToken);
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand("SELECT document::text FROM runs WHERE id = ANY($1)", connection);
        command.Parameters.Add(new() { Value = ids.Select(id => id.ToLowerInvariant()).ToArray() });
        var runs = new List<RunDocument>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            runs.Add(RunDocumentJson.Deserialize(reader.GetString(0)));
        }

        return (IReadOnlyList<RunDocument>)runs;
    });

    public Task<RunDocument?> FindAsync(string idOrPrefix, CancellationToken cancellationToken) =>
        GuardAsync(() => FindCoreAsync(idOrPrefix, cancellationToken));

    private async Task<RunDocument?> FindCoreAsync(string idOrPrefix, CancellationToken cancellationToken)
    {
        await EnsureMigratedAsync(cancellationToken);
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand("""
            SELECT id, document::text FROM runs WHERE id = $1
            UNION ALL
            (SELECT id, document::text FROM runs
             WHERE (id LIKE $2 OR (length($1) >= $4 AND length(id) = 32 AND substr(id, 13, 1) = '7' AND id LIKE $3)) AND id <> $1
               AND NOT EXISTS (SELECT 1 FROM runs WHERE id = $1)
             ORDER BY id LIMIT 4)
            """, connection);
        command.Parameters.Add(new() { Value = idOrPrefix.ToLowerInvariant() });
        command.Parameters.Add(new() { Value = EscapeLike(idOrPrefix.ToLowerInvariant()) + "%" });
        command.Parameters.Add(new() { Value = "%" + EscapeLike(idOrPrefix.ToLowerInvariant()) });
        command.Parameters.Add(new() { Value = RunId.ShortLength });
        var found = new List<(string Id, string Json)>();
        await using (var reader = await command.ExecuteReaderAsync(cancellationToken))
        {
            while (await reader.ReadAsync(cancellationToken))
            {
                found.Add((reader.GetString(0), reader.GetString(1)));
            }
        }

        return found.Count switch
        {
            0 => null,
            1 => RunDocumentJson.Deserialize(found[0].Json),
            _ =>
                throw new RunLookupException($"'{idOrPrefix}' matches {found.Count}{(found.Count == 4 ? "+" : "")} runs " +
                    $"({string.Join(", ", found.Take(3).Select(f => f.Id))}…): give more of the id"),
        };
    }

    public Task<RunQueryResult> QueryAsync(RunQuery query, CancellationToken cancellationToken) =>
        GuardAsync(() => QueryCoreAsync(query, "document::text", command => { }, cancellationToken));

    /// <summary>
    /// The series' view of each run, built by the database from the run's columns, its stored
    /// series fields and the named measurements and their metadata: no document is read.
    /// </summary>
    public Task<RunQueryResult> QuerySeriesAsync(RunQuery query, IReadOnlySet<string> measurements, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        const string View = """
            jsonb_build_object(
                'id', r.id, 'scenario', r.scenario, 'server', r.server, 'load', r.load, 'status', r.status,
                'startedAt', r.started_at, 'labels', to_jsonb(r.labels),
                'schema', r.series_fields->'schema', 'parameters', r.series_fields->'parameters', 'environment', r.series_fields->'environment',
                'measurements', COALESCE((SELECT jsonb_object_agg(m.name, m.value) FROM measurements m
                    WHERE m.run_id = r.id AND m.name = ANY($1)), '{}'::jsonb),
                'metadata', COALESCE((SELECT jsonb_object_agg(d.name, jsonb_build_object('description', d.description, 'unit', d.unit,
                        'aggregate', d.aggregate, 'higherIsBetter', d.higher_is_better))
                    FROM measurement_metadata d WHERE d.run_id = r.id AND d.name = ANY($1)), '{}'::jsonb))::text
            """;
        return GuardAsync(() => QueryCoreAsync(query, View, command => command.Parameters.Add(new() { Value = measurements.ToArray() }), cancellationToken));
    }

    /// <summary>
    /// The runs the query matches, oldest first, each read from the SQL expression
    /// <paramref name="select"/> over <c>runs r</c>; <paramref name="first"/> adds the parameters
    /// it names before the filters'.
    /// </summary>
    private async Task<RunQueryResult> QueryCoreAsync(RunQuery query, string select, Action<NpgsqlCommand> first, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(query);
        await EnsureMigratedAsync(cancellationToken);
        await using var connection = await OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand { Connection = connection };
        first(command);
        var where = new StringBuilder("TRUE");
        void Add(string condition, object value)
        {
            command.Parameters.Add(new() { Value = value });
            where.Append(" AND ").Append(condition.Replace("{p}", $"${command.Parameters.Count}", StringComparison.Ordinal));
        }

        if (query.Scenario is not null)
        {
            Add("r.scenario = {p}", query.Scenario);
        }

        if (query.Server is not null)
        {
            Add("r.server = {p}", query.Server);
        }

        if (query.Os is not null)
        {
            Add("lower(r.os) = lower({p})", query.Os);
        }

        if (query.Label is not null)
        {
            Add("r.labels @> ARRAY[{p}]", query.Label);
        }

        if (query.Load is not null)
        {
            Add("r.load = {p}", query.Load);
        }

        if (query.Status is not null)
        {
            Add("r.status = {p}", query.Status.ToString()!);
        }

        if (query.Since is not null)
        {
            Add("r.started_at >= {p}", query.Since.Value.ToUniversalTime());
        }

        if (query.Until is not null)
        {
            Add("r.started_at < {p}", query.Until.Value.ToUniversalTime());
        }

        command.CommandText = $"SELECT r.id, {select} FROM runs r WHERE {where} ORDER BY r.started_at, r.id";
        var runs = new List<RunDocument>();
        var unreadable = new List<string>();
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        while (await reader.ReadAsync(cancellationToken))
        {
            try
            {
                runs.Add(RunDocumentJson.Deserialize(reader.GetString(1)));
            }
            catch (System.Text.Json.JsonException ex)
            {
                unreadable.Add($"run {reader.GetString(0)}: {ex.Message}");
            }
        }

        return new RunQueryResult(runs, unreadable);
    }

    public ValueTask DisposeAsync() => _dataSource.DisposeAsync();

    /// <summary>Any database failure reaches the caller as one <see cref="StoreUnavailableException"/> with its cause.</summary>
    private async Task<T> GuardAsync<T>(Func<Task<T>> action)
    {
        try
        {
            return await action();
        }
        catch (Exception ex) when (ex is NpgsqlException or System.Net.Sockets.SocketException or TimeoutException or InvalidOperationException)
        {
            throw new StoreUnavailableException($"{Description}: {ex.Message}", ex);
        }
    }

    private async Task EnsureMigratedAsync(CancellationToken cancellationToken)
    {
        if (!_migrated)
        {
            await MigrateCoreAsync(cancellationToken);
        }
    }

    private async Task<NpgsqlConnection> OpenAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await _dataSource.OpenConnectionAsync(cancellationToken);
        }
        catch (Exception ex) when (ex is NpgsqlException or System.Net.Sockets.SocketException or TimeoutException)
        {
            throw new StoreUnavailableException($"{Description} is unavailable: {ex.Message}", ex);
        }
    }

    private static async Task Execute(NpgsqlConnection connection, NpgsqlTransaction transaction, string sql, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand(sql, connection, transaction);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    private static string EscapeLike(string text) =>
        text.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("%", "\\%", StringComparison.Ordinal).Replace("_", "\\_", StringComparison.Ordinal);
}

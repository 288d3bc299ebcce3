using Npgsql;

namespace Benchmarks.Host.Verify;

/// <summary>
/// What the database itself says it ran, from <c>pg_stat_statements</c>: calls and rows of the
/// World selects, the World updates and the Fortune selects since the last reset.
/// </summary>
internal sealed record DatabaseStatements(long WorldSelects, long WorldSelectRows, long WorldUpdates, long WorldUpdateRows, long FortuneSelects)
{
    private const string Query =
        """
        SELECT
          coalesce(sum(calls) FILTER (WHERE query ILIKE 'select%world%'), 0),
          coalesce(sum(rows) FILTER (WHERE query ILIKE 'select%world%'), 0),
          coalesce(sum(calls) FILTER (WHERE query ILIKE 'update%world%'), 0),
          coalesce(sum(rows) FILTER (WHERE query ILIKE 'update%world%'), 0),
          coalesce(sum(calls) FILTER (WHERE query ILIKE 'select%fortune%'), 0)
        FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        """;

    /// <summary>Forgets what was counted so far; throws a one-line cause when pg_stat_statements is not installed.</summary>
    public static async Task ResetAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var reset = new NpgsqlCommand("SELECT pg_stat_statements_reset()", connection);
        await reset.ExecuteNonQueryAsync(cancellationToken);
    }

    public static async Task<DatabaseStatements> ReadAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand(Query, connection);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        await reader.ReadAsync(cancellationToken);
        return new DatabaseStatements(
            Convert.ToInt64(reader.GetValue(0), System.Globalization.CultureInfo.InvariantCulture),
            Convert.ToInt64(reader.GetValue(1), System.Globalization.CultureInfo.InvariantCulture),
            Convert.ToInt64(reader.GetValue(2), System.Globalization.CultureInfo.InvariantCulture),
            Convert.ToInt64(reader.GetValue(3), System.Globalization.CultureInfo.InvariantCulture),
            Convert.ToInt64(reader.GetValue(4), System.Globalization.CultureInfo.InvariantCulture));
    }

    /// <summary>Every Fortune row.</summary>
    public static async Task<List<(int Id, string Message)>> FortunesAsync(string connectionString, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand("SELECT id, message FROM fortune", connection);
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        var rows = new List<(int, string)>();
        while (await reader.ReadAsync(cancellationToken))
        {
            rows.Add((reader.GetInt32(0), reader.GetString(1)));
        }

        return rows;
    }

    /// <summary>Reads the random numbers of the given World rows as they are now.</summary>
    public static async Task<Dictionary<int, int>> WorldsAsync(string connectionString, IReadOnlyCollection<int> ids, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var command = new NpgsqlCommand("SELECT id, randomnumber FROM world WHERE id = ANY($1)", connection);
        command.Parameters.Add(new NpgsqlParameter<int[]> { TypedValue = [.. ids] });
        await using var reader = await command.ExecuteReaderAsync(cancellationToken);
        var rows = new Dictionary<int, int>();
        while (await reader.ReadAsync(cancellationToken))
        {
            rows[reader.GetInt32(0)] = reader.GetInt32(1);
        }

        return rows;
    }
}

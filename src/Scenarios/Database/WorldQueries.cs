using System.Data;
using Npgsql;

namespace Benchmarks.Scenarios.Database;

/// <summary>
/// The World reads and writes, as raw ADO.NET: one prepared select per row (auto-prepared by
/// Npgsql), several of them sent as one batch with an error barrier (a Sync) after each, as
/// TechEmpower's rules require since round 21; the bulk update as one statement over arrays.
/// </summary>
internal static class WorldQueries
{
    public const string SelectSql = "SELECT id, randomnumber FROM world WHERE id = $1";

    public const string UpdateSql =
        "UPDATE world SET randomnumber = data.randomnumber FROM (SELECT unnest($1::int[]) AS id, unnest($2::int[]) AS randomnumber) " +
        "AS data WHERE world.id = data.id";

    /// <summary>
    /// The token a query runs under: none. A request aborted mid-query (the load timed it out and
    /// closed its connection) would make Npgsql cancel the query, and PostgreSQL's cancel is a new
    /// connection to the server, a backend forked for it: under overload each timeout added work to
    /// the database, and Kestrel's <c>db</c> collapsed to 0-8 req/s, PostgreSQL busy, in 2 of 5
    /// runs on 2 cores. A query takes milliseconds; finishing it costs less than cancelling it, and
    /// TechEmpower's implementations do not cancel theirs. Waiting for a pooled connection is still
    /// cancelled (that is local). The parameter names what is left out.
    /// </summary>
    public static CancellationToken NotCancelled(CancellationToken requestAborted)
    {
        _ = requestAborted;
        return CancellationToken.None;
    }

    public static async Task<World> ReadOneAsync(int id, CancellationToken cancellationToken)
    {
        await using var command = WorldStore.Source.CreateCommand(SelectSql);
        command.Parameters.Add(new NpgsqlParameter<int> { TypedValue = id });
        await using var reader = await command.ExecuteReaderAsync(CommandBehavior.SingleRow, cancellationToken);
        return await reader.ReadAsync(cancellationToken)
            ? new World(reader.GetInt32(0), reader.GetInt32(1))
            : throw new InvalidOperationException($"World row {id} does not exist.");
    }

    /// <summary>Reads the rows <paramref name="ids"/> in one round trip: one select per id, each followed by a Sync.</summary>
    public static async Task<World[]> ReadManyAsync(NpgsqlConnection connection, int[] ids, CancellationToken cancellationToken)
    {
        await using var batch = new NpgsqlBatch(connection) { EnableErrorBarriers = true };
        foreach (var id in ids)
        {
            var command = new NpgsqlBatchCommand(SelectSql);
            command.Parameters.Add(new NpgsqlParameter<int> { TypedValue = id });
            batch.BatchCommands.Add(command);
        }

        var worlds = new World[ids.Length];
        await using var reader = await batch.ExecuteReaderAsync(cancellationToken);
        for (var i = 0; i < ids.Length; i++)
        {
            if (i > 0)
            {
                await reader.NextResultAsync(cancellationToken);
            }

            worlds[i] = await reader.ReadAsync(cancellationToken)
                ? new World(reader.GetInt32(0), reader.GetInt32(1))
                : throw new InvalidOperationException($"World row {ids[i]} does not exist.");
        }

        return worlds;
    }

    /// <summary>Writes the random numbers of <paramref name="worlds"/> in one statement.</summary>
    public static async Task UpdateAsync(NpgsqlConnection connection, World[] worlds, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand(UpdateSql, connection);
        command.Parameters.Add(new NpgsqlParameter<int[]> { TypedValue = [.. worlds.Select(w => w.Id)] });
        command.Parameters.Add(new NpgsqlParameter<int[]> { TypedValue = [.. worlds.Select(w => w.RandomNumber)] });
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    /// <summary><paramref name="count"/> random ids, each drawn like <see cref="WorldStore.RandomId"/>.</summary>
    public static int[] RandomIds(int count)
    {
        var ids = new int[count];
        for (var i = 0; i < ids.Length; i++)
        {
            ids[i] = WorldStore.RandomId();
        }

        return ids;
    }

    /// <summary>
    /// <paramref name="count"/> different random ids in ascending order: an update then writes
    /// exactly the numbers it reports (a repeated id would keep only one of its two numbers), and
    /// concurrent updates lock rows in the same order, so they cannot deadlock.
    /// </summary>
    public static int[] DistinctRandomIds(int count)
    {
        var chosen = new HashSet<int>(count);
        while (chosen.Count < count)
        {
            chosen.Add(WorldStore.RandomId());
        }

        var ids = chosen.ToArray();
        Array.Sort(ids);
        return ids;
    }
}

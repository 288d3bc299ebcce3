using Benchmarks.Host.Platform;
using Benchmarks.Scenarios;
using Npgsql;

namespace Benchmarks.Host.Databases;

/// <summary>
/// The database a database scenario runs against: a private cluster started for the run (and
/// stopped after it), or an existing one named with <c>--database</c>, which is only read (and
/// its World rows updated by <c>updates</c>): its tables are checked, never created or dropped.
/// </summary>
internal sealed class RunDatabase : IAsyncDisposable
{
    private readonly PostgresCluster? _cluster;

    private RunDatabase(string connectionString, PostgresCluster? cluster, IReadOnlyList<int>? cpus)
    {
        ConnectionString = connectionString;
        _cluster = cluster;
        Cpus = cpus;
    }

    public string ConnectionString { get; }

    /// <summary>The private cluster's postmaster, sampled with its backends; 0 for an existing database (not ours to sample).</summary>
    public int ProcessId => _cluster?.ProcessId ?? 0;

    public IReadOnlyList<int>? Cpus { get; }

    /// <summary>One line for the run's parameters and progress.</summary>
    public string Description => _cluster is { } cluster
        ? $"private PostgreSQL {cluster.Version} (pid {cluster.ProcessId}, port {cluster.Port})"
        : $"existing PostgreSQL ({new NpgsqlConnectionStringBuilder(ConnectionString).Host})";

    /// <summary>The cluster's last log lines when it is gone (why the database went away), else null.</summary>
    public string? Gone(IProcessControl control) => _cluster is { } cluster && control.HasEnded(cluster.ProcessId)
        ? $"the database stopped during the run (its last word: {LastWord(cluster)})"
        : null;

    /// <summary>The cluster's last log line without its time stamp and process id ("FATAL: ...").</summary>
    private static string LastWord(PostgresCluster cluster)
    {
        var last = cluster.LastLog(1);
        var line = last.Count > 0 ? last[0] : "nothing";
        var mark = line.IndexOf("] ", StringComparison.Ordinal);
        return string.Join(' ', (mark >= 0 ? line[(mark + 2)..] : line).Split(' ', StringSplitOptions.RemoveEmptyEntries));
    }

    public static async Task<RunDatabase> OpenAsync(IDatabaseScenario scenario, string? existing, IReadOnlyList<int>? cpus, IProcessControl control, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (existing is not null)
        {
            await CheckExistingAsync(existing, cancellationToken);
            return new RunDatabase(existing, null, null);
        }

        var cluster = await PostgresCluster.StartAsync(scenario.SchemaScript, cpus, control, cancellationToken);
        return new RunDatabase(cluster.ConnectionString, cluster, cpus);
    }

    private static async Task CheckExistingAsync(string connectionString, CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = new NpgsqlConnection(connectionString);
            await connection.OpenAsync(cancellationToken);
            await using var check = new NpgsqlCommand("SELECT (SELECT count(*) FROM world), (SELECT count(*) FROM fortune)", connection);
            await using var reader = await check.ExecuteReaderAsync(cancellationToken);
            await reader.ReadAsync(cancellationToken);
            var (worlds, fortunes) = (reader.GetInt64(0), reader.GetInt64(1));
            if (worlds < 10_000 || fortunes == 0)
            {
                throw new DatabaseUnavailableException($"--database has {worlds} World and {fortunes} Fortune rows; TechEmpower's hello_world schema has 10,000 and 12 (the tool does not fill a database it did not start).");
            }
        }
        catch (PostgresException ex) when (ex.SqlState == PostgresErrorCodes.UndefinedTable)
        {
            throw new DatabaseUnavailableException($"--database has no World or Fortune table ({ex.MessageText}); load TechEmpower's hello_world schema into it, or leave --database out to let the run start its own.", ex);
        }
        catch (Exception ex) when (ex is NpgsqlException or ArgumentException or TimeoutException)
        {
            throw new DatabaseUnavailableException($"--database cannot be used: {ex.Message.ReplaceLineEndings(" ")}", ex);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_cluster is not null)
        {
            await _cluster.DisposeAsync();
        }
    }
}

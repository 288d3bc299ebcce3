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

    private readonly int _existingProcessId;

    private RunDatabase(string connectionString, PostgresCluster? cluster, IReadOnlyList<int>? cpus, int existingProcessId = 0)
    {
        ConnectionString = connectionString;
        _cluster = cluster;
        Cpus = cpus;
        _existingProcessId = existingProcessId;
    }

    public string ConnectionString { get; }

    /// <summary>The postmaster, sampled with its backends: the private cluster's, or an existing database's on this machine; else 0.</summary>
    public int ProcessId => _cluster?.ProcessId ?? _existingProcessId;

    public IReadOnlyList<int>? Cpus { get; }

    /// <summary>One line for the run's parameters and progress.</summary>
    public string Description => _cluster is { } cluster
        ? $"private PostgreSQL {cluster.Version} (pid {cluster.ProcessId}, port {cluster.Port})"
        : $"existing PostgreSQL " +
            $"({new NpgsqlConnectionStringBuilder(ConnectionString).Host}{(_existingProcessId > 0 ? $", on this machine: pid {_existingProcessId}" : "")})";

    /// <summary>Why the database is gone when its postmaster ended during the run (the private cluster's last log line), else null.</summary>
    public string? Gone(IProcessControl control) => ProcessId <= 0 || !control.HasEnded(ProcessId)
        ? null
        : _cluster is { } cluster ? $"the database stopped during the run (its last word: {LastWord(cluster)})"
        : $"the database stopped during the run (its postmaster, pid {ProcessId}, ended)";

    /// <summary>The cluster's last log line without its time stamp and process id ("FATAL: ...").</summary>
    private static string LastWord(PostgresCluster cluster)
    {
        var last = cluster.LastLog(1);
        var line = last.Count > 0 ? last[0] : "nothing";
        var mark = line.IndexOf("] ", StringComparison.Ordinal);
        return string.Join(' ', (mark >= 0 ? line[(mark + 2)..] : line).Split(' ', StringSplitOptions.RemoveEmptyEntries));
    }

    /// <summary>The one line for an empty <c>--database</c>, on every command that takes it.</summary>
    public const string EmptyConnectionString = "--database is empty: give an Npgsql connection string, " +
        "such as Host=db;Username=benchmarkdbuser;Password=…;Database=hello_world.";

    /// <summary>The longest the check of an existing database may take to connect, whatever its connection string says.</summary>
    private static readonly TimeSpan s_checkTimeout = TimeSpan.FromSeconds(30);

    public static async Task<RunDatabase> OpenAsync(IDatabaseScenario scenario, string? existing, IReadOnlyList<int>? cpus, IProcessControl control,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        if (existing is not null)
        {
            if (string.IsNullOrWhiteSpace(existing))
            {
                throw new DatabaseUnavailableException(EmptyConnectionString);
            }

            var postmaster = await CheckExistingAsync(existing, control, cancellationToken);
            return new RunDatabase(existing, null, null, postmaster);
        }

        var cluster = await PostgresCluster.StartAsync(scenario.SchemaScript, cpus, control, cancellationToken);
        return new RunDatabase(cluster.ConnectionString, cluster, cpus);
    }

    /// <summary>Checks the tables; returns the postmaster's process id when the database runs on this machine (its CPU is then sampled), else 0.</summary>
    private static async Task<int> CheckExistingAsync(string connectionString, IProcessControl control, CancellationToken cancellationToken)
    {
        try
        {
            // Npgsql may not give up a connect on cancellation, and Timeout=0 waits forever: Ctrl+C and the check's own
            // limit end it here. A connection still connecting cannot be closed; it is left to end with the process.
            var opening = new NpgsqlConnection(connectionString);
            await opening.OpenAsync(cancellationToken).WaitAsync(s_checkTimeout, cancellationToken);
            await using var connection = opening;
            await using var check = new NpgsqlCommand("SELECT (SELECT count(*) FROM world), (SELECT count(*) FROM fortune)", connection);
            await using var reader = await check.ExecuteReaderAsync(cancellationToken);
            await reader.ReadAsync(cancellationToken);
            var (worlds, fortunes) = (reader.GetInt64(0), reader.GetInt64(1));
            if (worlds < 10_000 || fortunes == 0)
            {
                throw new DatabaseUnavailableException($"--database has {worlds} World and {fortunes} Fortune rows; " +
                    $"TechEmpower's hello_world schema has 10,000 and 12 (the tool does not fill a database it did not start).");
            }

            await reader.CloseAsync();
            return await LocalPostmasterAsync(connection, control, cancellationToken);
        }
        catch (PostgresException ex) when (ex.SqlState == PostgresErrorCodes.UndefinedTable)
        {
            throw new DatabaseUnavailableException(
                $"--database has no World or Fortune table ({ex.MessageText}); load TechEmpower's hello_world schema into it, " +
                $"or leave --database out to let the run start its own.",
                ex);
        }
        catch (TimeoutException)
        {
            throw new DatabaseUnavailableException($"--database did not answer within {s_checkTimeout.TotalSeconds:0} s (is the host right, " +
                $"and is a firewall dropping the connection?).");
        }
        catch (Exception ex) when (ex is NpgsqlException or ArgumentException or InvalidOperationException)
        {
            throw new DatabaseUnavailableException($"--database cannot be used: {ex.Message.ReplaceLineEndings(" ")}", ex);
        }
    }

    /// <summary>
    /// The parent of this connection's backend when the server is on this machine (a loopback host or
    /// a socket folder) and that parent is a postgres process; else 0 (another machine, a container).
    /// </summary>
    private static async Task<int> LocalPostmasterAsync(NpgsqlConnection connection, IProcessControl control, CancellationToken cancellationToken)
    {
        var host = new NpgsqlConnectionStringBuilder(connection.ConnectionString).Host ?? "";
        var local = host.StartsWith('/')
            || host is "localhost"
            || (System.Net.IPAddress.TryParse(host, out var address) && System.Net.IPAddress.IsLoopback(address));
        if (!local)
        {
            return 0;
        }

        await using var command = new NpgsqlCommand("SELECT pg_backend_pid()", connection);
        var backend = Convert.ToInt32(await command.ExecuteScalarAsync(cancellationToken), System.Globalization.CultureInfo.InvariantCulture);
        if (control.ParentOf(backend) is not { } parent)
        {
            return 0;
        }

        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(parent);
            return process.ProcessName.StartsWith("postgres", StringComparison.OrdinalIgnoreCase) ? parent : 0;
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException)
        {
            return 0;
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

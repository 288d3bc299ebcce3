using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Platform;
using Npgsql;

namespace Benchmarks.Host.Databases;

/// <summary>
/// A private PostgreSQL cluster for one run: initdb in a temporary folder, the postmaster on a
/// free loopback port (tuned as a benchmark database: no fsync, asynchronous commit,
/// pg_stat_statements loaded), pinned with its workers to its own CPUs when given, a
/// <c>hello_world</c> database filled by the scenario's schema script. Disposing stops it and deletes the folder.
/// </summary>
internal sealed class PostgresCluster : IAsyncDisposable
{
    public const string DatabaseName = "hello_world";

    /// <summary>TechEmpower's database user, for clients on other machines (password authentication); local clients are trusted.</summary>
    public const string RemoteUser = "benchmarkdbuser";

    public const string RemotePassword = "benchmarkdbpass";

    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(60);

    private readonly PostgresInstallation _installation;
    private readonly string _directory;
    private readonly Process _process;
    private readonly OutputTail _log;

    private PostgresCluster(PostgresInstallation installation, string directory, Process process, OutputTail log, int port)
    {
        _installation = installation;
        _directory = directory;
        _process = process;
        _log = log;
        Port = port;
    }

    public int Port { get; }

    /// <summary>The postmaster's process id (its backends are its children).</summary>
    public int ProcessId { get; private set; }

    public string Version { get; private set; } = "";

    public string ConnectionString => $"Host=127.0.0.1;Port={Port.ToString(CultureInfo.InvariantCulture)};Username=postgres;Database={DatabaseName}";

    /// <summary>The server's own log, last lines (why it stopped, when it did).</summary>
    public IReadOnlyList<string> LastLog(int count) => _log.Last(count);

    /// <summary>The connection string for another machine that reaches this one at <paramref name="host"/>.</summary>
    public string RemoteConnectionString(string host) =>
        $"Host={host};Port={Port.ToString(CultureInfo.InvariantCulture)};Username={RemoteUser};Password={RemotePassword};Database={DatabaseName}";

    /// <param name="schemaScript">Creates and fills the tables.</param>
    /// <param name="cpus">Where the postmaster and its backends run; null for anywhere.</param>
    /// <param name="control">Pins processes.</param>
    /// <param name="cancellationToken">Abandons the start.</param>
    /// <param name="listen">Also listen on this address (<c>0.0.0.0</c> for all), for clients on other machines; null for loopback only.</param>
    /// <param name="port">The port; 0 for a free one.</param>
    public static async Task<PostgresCluster> StartAsync(string schemaScript, IReadOnlyList<int>? cpus, IProcessControl control, CancellationToken cancellationToken, string? listen = null, int port = 0)
    {
        ArgumentNullException.ThrowIfNull(control);
        var installation = PostgresInstallation.Find();
        OwnerCommand.EnsureOwner();
        var directory = Path.Combine(Path.GetTempPath(), "benchmarks-db-" + Guid.NewGuid().ToString("N")[..12]);
        Directory.CreateDirectory(directory);
        try
        {
            await OwnerCommand.GiveAsync(directory, cancellationToken);
            var (exit, line) = await OwnerCommand.RunAsync(OwnerCommand.Create(installation.InitDb, "-D", directory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"), cancellationToken);
            if (exit != 0)
            {
                throw new DatabaseUnavailableException($"initdb failed (exit {exit}): {line}");
            }

            port = port > 0 ? port : FreePort();
            if (listen is not null)
            {
                // Other machines sign in as TechEmpower's user with its password; this one stays trusted (the lines before these).
                await File.AppendAllTextAsync(Path.Combine(directory, "pg_hba.conf"), "host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n", cancellationToken);
            }

            var addresses = listen switch { null => "127.0.0.1", "0.0.0.0" or "*" => "*", _ => $"127.0.0.1,{listen}" };
            var log = new OutputTail(100);
            var process = Process.Start(OwnerCommand.Create(installation.Postgres, "-D", directory, "-p", port.ToString(CultureInfo.InvariantCulture), "-k", directory,
                "-c", $"listen_addresses={addresses}", "-c", "max_connections=600", "-c", "shared_buffers=256MB", "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.max=1000"))
                ?? throw new DatabaseUnavailableException("postgres could not be started.");
            process.ErrorDataReceived += (_, e) => { if (e.Data is { } text) { log.Add(text); } };
            process.OutputDataReceived += (_, e) => { if (e.Data is { } text) { log.Add(text); } };
            process.BeginErrorReadLine();
            process.BeginOutputReadLine();
            var cluster = new PostgresCluster(installation, directory, process, log, port);
            try
            {
                await cluster.WaitUntilReadyAsync(cpus, control, cancellationToken);
                await cluster.CreateDatabaseAsync(schemaScript, cancellationToken);
            }
            catch
            {
                await cluster.DisposeAsync();
                throw;
            }

            return cluster;
        }
        catch (Exception)
        {
            TryDelete(directory);
            throw;
        }
    }

    private async Task WaitUntilReadyAsync(IReadOnlyList<int>? cpus, IProcessControl control, CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.StartNew();
        var pidFile = Path.Combine(_directory, "postmaster.pid");
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (_process.HasExited)
            {
                throw new DatabaseUnavailableException($"postgres exited at start (exit {_process.ExitCode}): {string.Join(" | ", _log.Last(3))}");
            }

            if (ProcessId == 0 && File.Exists(pidFile) && int.TryParse(ReadFirstLine(pidFile), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && pid > 0)
            {
                ProcessId = pid;
                Pin(cpus, control);
            }

            if (ProcessId != 0 && await CanConnectAsync(cancellationToken))
            {
                Version = File.ReadAllText(Path.Combine(_directory, "PG_VERSION")).Trim();
                return;
            }

            if (deadline.Elapsed > s_startTimeout)
            {
                throw new DatabaseUnavailableException($"postgres did not accept connections within {s_startTimeout.TotalSeconds:0} s: {string.Join(" | ", _log.Last(3))}");
            }

            await Task.Delay(100, cancellationToken);
        }
    }

    /// <summary>The postmaster and the workers it has forked so far; backends forked later inherit its CPUs.</summary>
    private void Pin(IReadOnlyList<int>? cpus, IProcessControl control)
    {
        if (cpus is null)
        {
            return;
        }

        using var postmaster = Process.GetProcessById(ProcessId);
        control.SetAffinity(postmaster, cpus);
        foreach (var child in control.Descendants(postmaster))
        {
            try
            {
                using var worker = Process.GetProcessById(child);
                control.SetAffinity(worker, cpus);
            }
            catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
            {
            }
        }
    }

    private async Task<bool> CanConnectAsync(CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = new NpgsqlConnection(ConnectionString.Replace(DatabaseName, "postgres", StringComparison.Ordinal) + ";Pooling=false;Timeout=2");
            await connection.OpenAsync(cancellationToken);
            return true;
        }
        catch (Exception ex) when (ex is NpgsqlException or TimeoutException)
        {
            return false;
        }
    }

    private async Task CreateDatabaseAsync(string schemaScript, CancellationToken cancellationToken)
    {
        await using (var admin = new NpgsqlConnection(ConnectionString.Replace(DatabaseName, "postgres", StringComparison.Ordinal) + ";Pooling=false"))
        {
            await admin.OpenAsync(cancellationToken);
            await using var create = new NpgsqlCommand($"CREATE DATABASE {DatabaseName} ENCODING 'UTF8' TEMPLATE template0", admin);
            await create.ExecuteNonQueryAsync(cancellationToken);
        }

        await using var connection = new NpgsqlConnection(ConnectionString + ";Pooling=false");
        await connection.OpenAsync(cancellationToken);
        await using var schema = new NpgsqlCommand(
            schemaScript + ";\nCREATE EXTENSION IF NOT EXISTS pg_stat_statements;\nANALYZE;\n" +
            $"CREATE ROLE {RemoteUser} LOGIN PASSWORD '{RemotePassword}';\nGRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO {RemoteUser};\nGRANT pg_read_all_stats TO {RemoteUser};\nGRANT EXECUTE ON FUNCTION pg_stat_statements_reset TO {RemoteUser};",
            connection);
        await schema.ExecuteNonQueryAsync(cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            try
            {
                using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(40));
                await OwnerCommand.RunAsync(OwnerCommand.Create(_installation.PgCtl, "-D", _directory, "stop", "-m", "fast", "-w", "-t", "30"), stop.Token);
                await _process.WaitForExitAsync(stop.Token);
            }
            catch (Exception ex) when (ex is OperationCanceledException or DatabaseUnavailableException or System.ComponentModel.Win32Exception)
            {
                _process.Kill(entireProcessTree: true);
            }
        }

        _process.Dispose();
        TryDelete(_directory);
    }

    private static void TryDelete(string directory)
    {
        try
        {
            Directory.Delete(directory, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
        }
    }

    private static string ReadFirstLine(string path)
    {
        try
        {
            using var reader = new StreamReader(new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete));
            return reader.ReadLine() ?? "";
        }
        catch (IOException)
        {
            return "";
        }
    }

    private static int FreePort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}

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
/// Every connection needs a password generated for the cluster (SCRAM): no local user is trusted. The tool
/// itself talks to the cluster only through the Unix socket in the cluster's own folder, so it can never
/// reach another server that holds the port; a port already in use is refused before anything starts.
/// </summary>
internal sealed class PostgresCluster : IAsyncDisposable
{
    public const string DatabaseName = "hello_world";

    /// <summary>TechEmpower's database user, created only for <c>benchmarks database</c> (clients on other machines).</summary>
    public const string RemoteUser = "benchmarkdbuser";

    public const string RemotePassword = "benchmarkdbpass";

    private const string FolderPrefix = "benchmarks-db-";

    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(60);

    /// <summary>Stops the clusters of tools that were killed before they could (their postmaster and its backends) and removes their folders.</summary>
    public static void RemoveLeftovers(IProcessControl control)
    {
        foreach (var folder in ScratchFolders.Abandoned(FolderPrefix, control))
        {
            var pidFile = Path.Combine(folder, "data", "postmaster.pid");
            if (int.TryParse(ReadFirstLine(pidFile), NumberStyles.None, CultureInfo.InvariantCulture, out var postmaster) && postmaster > 0)
            {
                // As root the postmaster runs under runuser, which an orphaned group may leave stopped: it goes too.
                var parent = control.ParentOf(postmaster);
                ScratchFolders.EndLeftover(postmaster, "postgres");
                if (parent is { } runuser and > 1)
                {
                    ScratchFolders.EndLeftover(runuser, "runuser");
                }
            }

            ScratchFolders.TryDelete(folder);
        }
    }

    private readonly PostgresInstallation _installation;
    private readonly string _directory;
    private readonly Process _process;
    private readonly OutputTail _log;

    private readonly string _password;

    private PostgresCluster(PostgresInstallation installation, string directory, Process process, OutputTail log, int port, string password)
    {
        _installation = installation;
        _directory = directory;
        _process = process;
        _log = log;
        _password = password;
        Port = port;
    }

    public int Port { get; }

    /// <summary>The postmaster's process id (its backends are its children).</summary>
    public int ProcessId { get; private set; }

    public string Version { get; private set; } = "";

    /// <summary>For the server under test: TCP on loopback, as TechEmpower's servers connect, with the cluster's generated password.</summary>
    public string ConnectionString =>
        $"Host=127.0.0.1;Port={Port.ToString(CultureInfo.InvariantCulture)};Username=postgres;Password={_password};Database={DatabaseName}";

    /// <summary>For the tool itself: the Unix socket in the cluster's own folder, which only this cluster can have made.</summary>
    private string SocketConnectionString(string database) =>
        $"Host={_directory};Port={Port.ToString(CultureInfo.InvariantCulture)};Username=postgres;Password={_password};Database={database};Pooling=false";

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
    public static async Task<PostgresCluster> StartAsync(string schemaScript, IReadOnlyList<int>? cpus, IProcessControl control,
        CancellationToken cancellationToken, string? listen = null, int port = 0)
    {
        ArgumentNullException.ThrowIfNull(control);
        var installation = PostgresInstallation.Find();
        OwnerCommand.EnsureOwner();
        if (port > 0 && PortInUse(port, listen) is { } holder)
        {
            throw new DatabaseUnavailableException($"port {port.ToString(CultureInfo.InvariantCulture)} is in use on {holder} (another PostgreSQL?): " +
                $"choose a free one with --port.");
        }

        var password = Convert.ToHexString(System.Security.Cryptography.RandomNumberGenerator.GetBytes(18)).ToLowerInvariant();
        var directory = ScratchFolders.Create(FolderPrefix);
        try
        {
            // The password reaches initdb in a file only the cluster's owner can read, deleted once read.
            var passwordFile = Path.Combine(directory, "pwfile");
            await File.WriteAllTextAsync(passwordFile, password + "\n", cancellationToken);
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(directory, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
                File.SetUnixFileMode(passwordFile, UnixFileMode.UserRead | UnixFileMode.UserWrite);
            }

            await OwnerCommand.GiveAsync(directory, cancellationToken);
            var data = Path.Combine(directory, "data");
            var (exit, line) = await OwnerCommand.RunAsync(
                OwnerCommand.Create(installation.InitDb, "-D", data, "-U", "postgres", "--auth=scram-sha-256", "--pwfile", passwordFile, "-E", "UTF8",
                    "--locale=C", "--no-sync"),
                cancellationToken);
            File.Delete(passwordFile);
            if (exit != 0)
            {
                throw new DatabaseUnavailableException($"initdb failed (exit {exit}): {line}");
            }

            port = port > 0 ? port : Platform.LoopbackPort.Free();
            if (listen is not null)
            {
                // Other machines sign in as TechEmpower's user with its password (initdb's lines allow loopback only).
                await File.AppendAllTextAsync(Path.Combine(data, "pg_hba.conf"), "host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n",
                    cancellationToken);
            }

            var addresses = listen switch { null => "127.0.0.1", "0.0.0.0" or "*" => "*", _ => $"127.0.0.1,{listen}" };
            var log = new OutputTail(100);
            var process = Process.Start(OwnerCommand.Create(
                installation.Postgres, "-D", data, "-p", port.ToString(CultureInfo.InvariantCulture), "-k", directory,
                "-c", $"listen_addresses={addresses}", "-c", "max_connections=600", "-c", "shared_buffers=256MB",
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                "-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.max=1000"))
                ?? throw new DatabaseUnavailableException("postgres could not be started.");
            process.ErrorDataReceived += (_, e) => { if (e.Data is { } text) { log.Add(text); } };
            process.OutputDataReceived += (_, e) => { if (e.Data is { } text) { log.Add(text); } };
            process.BeginErrorReadLine();
            process.BeginOutputReadLine();
            var cluster = new PostgresCluster(installation, directory, process, log, port, password);
            try
            {
                await cluster.WaitUntilReadyAsync(cpus, control, cancellationToken);
                await cluster.CreateDatabaseAsync(schemaScript, remoteUser: listen is not null, cancellationToken);
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
            ScratchFolders.TryDelete(directory);
            throw;
        }
    }

    private async Task WaitUntilReadyAsync(IReadOnlyList<int>? cpus, IProcessControl control, CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.StartNew();
        var pidFile = Path.Combine(_directory, "data", "postmaster.pid");
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (_process.HasExited)
            {
                throw new DatabaseUnavailableException($"postgres exited at start (exit {_process.ExitCode}): {string.Join(" | ", _log.Last(3))}");
            }

            if (ProcessId == 0
                && File.Exists(pidFile)
                && int.TryParse(ReadFirstLine(pidFile), NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
                && pid > 0)
            {
                ProcessId = pid;
                Pin(cpus, control);
            }

            if (ProcessId != 0 && await CanConnectAsync(cancellationToken))
            {
                Version = File.ReadAllText(Path.Combine(_directory, "data", "PG_VERSION")).Trim();
                return;
            }

            if (deadline.Elapsed > s_startTimeout)
            {
                throw new DatabaseUnavailableException($"postgres did not accept connections within {s_startTimeout.TotalSeconds:0} s: " +
                    $"{string.Join(" | ", _log.Last(3))}");
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
            await using var connection = new NpgsqlConnection(SocketConnectionString("postgres") + ";Timeout=2");
            await connection.OpenAsync(cancellationToken);
            return true;
        }
        catch (Exception ex) when (ex is NpgsqlException or TimeoutException)
        {
            return false;
        }
    }

    private async Task CreateDatabaseAsync(string schemaScript, bool remoteUser, CancellationToken cancellationToken)
    {
        await using (var admin = new NpgsqlConnection(SocketConnectionString("postgres")))
        {
            await admin.OpenAsync(cancellationToken);
            await using var create = new NpgsqlCommand($"CREATE DATABASE {DatabaseName} ENCODING 'UTF8' TEMPLATE template0", admin);
            await create.ExecuteNonQueryAsync(cancellationToken);
        }

        await using var connection = new NpgsqlConnection(SocketConnectionString(DatabaseName));
        await connection.OpenAsync(cancellationToken);
        await using var schema = new NpgsqlCommand(
            schemaScript + ";\nCREATE EXTENSION IF NOT EXISTS pg_stat_statements;\nANALYZE;\n" + (!remoteUser ? "" :
            $"CREATE ROLE {RemoteUser} LOGIN PASSWORD '{RemotePassword}';\nGRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO {RemoteUser};\nGRANT " +
            $"pg_read_all_stats TO {RemoteUser};\nGRANT EXECUTE ON FUNCTION pg_stat_statements_reset TO {RemoteUser};"),
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
                await OwnerCommand.RunAsync(
                    OwnerCommand.Create(_installation.PgCtl, "-D", Path.Combine(_directory, "data"), "stop", "-m", "fast", "-w", "-t", "30"), stop.Token);
                await _process.WaitForExitAsync(stop.Token);
            }
            catch (Exception ex) when (ex is OperationCanceledException or DatabaseUnavailableException or System.ComponentModel.Win32Exception)
            {
                _process.Kill(entireProcessTree: true);
            }
        }

        _process.Dispose();
        ScratchFolders.TryDelete(_directory);
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

    /// <summary>Where <paramref name="port"/> is already bound (an address), or null when it is free on every address the cluster would use.</summary>
    internal static string? PortInUse(int port, string? listen)
    {
        var addresses = new List<IPAddress> { IPAddress.Loopback, IPAddress.IPv6Loopback };
        if (listen is "0.0.0.0" or "*")
        {
            addresses.Add(IPAddress.Any);
        }
        else if (listen is not null && IPAddress.TryParse(listen, out var address))
        {
            addresses.Add(address);
        }

        foreach (var address in addresses)
        {
            using var probe = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
            try
            {
                probe.Bind(new IPEndPoint(address, port));
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.AddressAlreadyInUse)
            {
                return address.ToString();
            }
            catch (SocketException)
            {
                // An address family this machine lacks (no IPv6): nothing can hold the port there.
            }
        }

        return null;
    }
}

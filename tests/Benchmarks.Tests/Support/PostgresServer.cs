using System.Diagnostics;
using Npgsql;

namespace Benchmarks.Tests.Support;

/// <summary>A real PostgreSQL cluster started through the project's own script (<c>eng/postgres.sh</c>), on a test port.</summary>
internal sealed class PostgresServer
{
    private const string SharedDirectory = "/tmp/benchmarks-postgres-25432";
    private static readonly SemaphoreSlim s_gate = new(1, 1);
    private static PostgresServer? s_shared;

    private PostgresServer(int port, string directory, string connectionString)
    {
        Port = port;
        Directory = directory;
        ConnectionString = connectionString;
    }

    public int Port { get; }

    public string Directory { get; }

    public string ConnectionString { get; }

    /// <summary>
    /// The cluster the tests share (port 25432), started once. If the tests started it, it is stopped
    /// when their process exits, so a test run leaves no server behind; a cluster that was already
    /// running (eng/test.sh starts it before the tests and stops it after) is left to its starter.
    /// </summary>
    public static async Task<PostgresServer> SharedAsync()
    {
        await s_gate.WaitAsync();
        try
        {
            if (s_shared is null)
            {
                var startedHere = !await RunningAsync(25432, SharedDirectory);
                s_shared = await StartAsync(25432, SharedDirectory);
                if (startedHere)
                {
                    AppDomain.CurrentDomain.ProcessExit += (_, _) => Script("stop", 25432, SharedDirectory).GetAwaiter().GetResult();
                }
            }

            return s_shared;
        }
        finally
        {
            s_gate.Release();
        }
    }

    /// <summary>A cluster of the test's own, which it may stop and start.</summary>
    public static Task<PostgresServer> PrivateAsync(int port) =>
        StartAsync(port, Path.Combine(Path.GetTempPath(), $"benchmarks-postgres-{port}-{Guid.NewGuid():N}"));

    public Task RestartAsync() => Script("start", Port, Directory);

    public Task StopAsync() => Script("stop", Port, Directory);

    /// <summary>A fresh, empty database on this cluster.</summary>
    public async Task<string> CreateDatabaseAsync()
    {
        var name = "bench_" + Guid.NewGuid().ToString("N")[..12];
        await using var connection = new NpgsqlConnection(ConnectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand($"CREATE DATABASE {name}", connection);
        await command.ExecuteNonQueryAsync();
        return new NpgsqlConnectionStringBuilder(ConnectionString) { Database = name, Pooling = false }.ConnectionString;
    }

    private static async Task<PostgresServer> StartAsync(int port, string directory)
    {
        var connectionString = (await Script("start", port, directory)).Trim();
        return new PostgresServer(port, directory, connectionString);
    }

    private static async Task<bool> RunningAsync(int port, string directory)
    {
        using var process = Process.Start(ScriptStart("status", port, directory))!;
        await process.WaitForExitAsync();
        return process.ExitCode == 0;
    }

    private static ProcessStartInfo ScriptStart(string action, int port, string directory)
    {
        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(Path.Combine(TestPaths.RepoRoot, "eng", "postgres.sh"));
        info.ArgumentList.Add(action);
        info.ArgumentList.Add(port.ToString(System.Globalization.CultureInfo.InvariantCulture));
        info.ArgumentList.Add(directory);
        return info;
    }

    private static async Task<string> Script(string action, int port, string directory)
    {
        using var process = Process.Start(ScriptStart(action, port, directory))!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"eng/postgres.sh {action} failed ({process.ExitCode}): {await error}");
        }

        return await output;
    }
}

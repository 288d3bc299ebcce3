using System.Diagnostics;
using Npgsql;

namespace Benchmarks.Tests.Support;

/// <summary>A real PostgreSQL cluster started through the project's own script (<c>eng/postgres.sh</c>), on a test port.</summary>
internal sealed class PostgresServer
{
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

    /// <summary>The cluster the tests share (port 25432), started once.</summary>
    public static async Task<PostgresServer> SharedAsync()
    {
        await s_gate.WaitAsync();
        try
        {
            return s_shared ??= await StartAsync(25432, "/tmp/benchmarks-postgres-25432");
        }
        finally
        {
            s_gate.Release();
        }
    }

    /// <summary>A cluster of the test's own, which it may stop and start.</summary>
    public static Task<PostgresServer> PrivateAsync(int port) => StartAsync(port, Path.Combine(Path.GetTempPath(), $"benchmarks-postgres-{port}-{Guid.NewGuid():N}"));

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

    private static async Task<string> Script(string action, int port, string directory)
    {
        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(Path.Combine(TestPaths.RepoRoot, "eng", "postgres.sh"));
        info.ArgumentList.Add(action);
        info.ArgumentList.Add(port.ToString(System.Globalization.CultureInfo.InvariantCulture));
        info.ArgumentList.Add(directory);
        using var process = Process.Start(info)!;
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

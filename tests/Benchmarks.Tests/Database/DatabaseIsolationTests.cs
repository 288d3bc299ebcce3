using Benchmarks.Host.Platform;
using System.Diagnostics;
using System.Globalization;
using Benchmarks.Tests.Support;
using Npgsql;

namespace Benchmarks.Tests.Database;

/// <summary>
/// The tool talks only to the PostgreSQL it started: a port held by another server is refused before
/// anything is created there, and its own clusters trust no local user (a generated password, SCRAM).
/// </summary>
public sealed class DatabaseIsolationTests
{
    [Fact]
    public async Task Database_refuses_a_port_another_postgres_holds_and_creates_nothing_there()
    {
        var port = LoopbackPort.Free();
        var other = await PostgresServer.PrivateAsync(port);
        try
        {
            var work = TestPaths.NewTempDirectory();
            var run = await HostRun.StartAsync(work, TimeSpan.FromSeconds(60), "database", "--listen", "127.0.0.1", "--port",
                port.ToString(CultureInfo.InvariantCulture));
            Assert.True(run.ExitCode != 0, run.ToString());
            var error = run.Error.Trim();
            Assert.DoesNotContain('\n', error);
            Assert.Contains($"port {port} is in use", error, StringComparison.Ordinal);
            Assert.DoesNotContain("ready to accept connections", run.Output, StringComparison.Ordinal);

            // The other server holds nothing of ours: no hello_world, no TechEmpower role.
            await using var connection = new NpgsqlConnection(other.ConnectionString);
            await connection.OpenAsync();
            await using var databases = new NpgsqlCommand("SELECT count(*) FROM pg_database WHERE datname = 'hello_world'", connection);
            Assert.Equal(0L, (long)(await databases.ExecuteScalarAsync())!);
            await using var roles = new NpgsqlCommand("SELECT count(*) FROM pg_roles WHERE rolname = 'benchmarkdbuser'", connection);
            Assert.Equal(0L, (long)(await roles.ExecuteScalarAsync())!);
        }
        finally
        {
            await other.StopAsync();
        }
    }

    [Fact]
    public async Task Database_refuses_a_listen_address_that_is_not_this_machines()
    {
        var work = TestPaths.NewTempDirectory();
        foreach (var listen in new[] { "999.1.1.1", "192.0.2.1" })
        {
            var run = await HostRun.StartAsync(work, TimeSpan.FromSeconds(30), "database", "--listen", listen, "--port", "1");
            Assert.True(run.ExitCode == 2, run.ToString());
            Assert.Contains($"--listen {listen}", run.Error.Replace("'", "", StringComparison.Ordinal), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task A_local_user_is_not_trusted_on_the_clusters_the_tool_starts()
    {
        var port = LoopbackPort.Free();
        var info = new ProcessStartInfo(TestPaths.HostExecutable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { "database", "--listen", "127.0.0.1", "--port", port.ToString(CultureInfo.InvariantCulture), "--advertise",
            "127.0.0.1" })
        {
            info.ArgumentList.Add(argument);
        }

        using var database = Process.Start(info)!;
        try
        {
            using var ready = new CancellationTokenSource(TimeSpan.FromSeconds(90));
            while (await database.StandardOutput.ReadLineAsync(ready.Token) is { } line
                && !line.Contains("ready to accept connections", StringComparison.Ordinal))
            {
            }

            // Another OS user, without the password, as the postgres superuser: refused (it would run programs as the cluster's owner).
            var nobody = await Psql(port, "postgres", password: null, "COPY (SELECT 1) TO PROGRAM 'id'");
            Assert.NotEqual(0, nobody.ExitCode);
            Assert.Contains("password", nobody.Output + nobody.Error, StringComparison.OrdinalIgnoreCase);

            // TechEmpower's user, with the password it publishes, may read but is no superuser.
            var techempower = await Psql(port, "benchmarkdbuser", "benchmarkdbpass", "SELECT rolsuper FROM pg_roles WHERE rolname = current_user");
            Assert.True(techempower.ExitCode == 0, techempower.ToString());
            Assert.Equal("f", techempower.Output.Trim());
            var program = await Psql(port, "benchmarkdbuser", "benchmarkdbpass", "COPY (SELECT 1) TO PROGRAM 'id'");
            Assert.NotEqual(0, program.ExitCode);
        }
        finally
        {
            using var kill = Process.Start("kill", ["-TERM", database.Id.ToString(CultureInfo.InvariantCulture)]);
            await kill.WaitForExitAsync();
            using var stopped = new CancellationTokenSource(TimeSpan.FromSeconds(60));
            await database.WaitForExitAsync(stopped.Token);
        }
    }

    private static Task<HostRun> Psql(int port, string user, string? password, string sql)
    {
        var environment = new Dictionary<string, string> { ["PGCONNECT_TIMEOUT"] = "5" };
        if (password is not null)
        {
            environment["PGPASSWORD"] = password;
        }

        // As root the client runs as 'nobody', a local user with no business in the cluster.
        string[] psql = ["psql", "-h", "127.0.0.1", "-p", port.ToString(CultureInfo.InvariantCulture), "-U", user, "-d", "hello_world", "-w", "-tA", "-c", sql];
        return Environment.UserName == "root"
            ? HostRun.StartProcessAsync(Path.GetTempPath(), TimeSpan.FromSeconds(30), environment, "runuser", ["-u", "nobody", "--", .. psql])
            : HostRun.StartProcessAsync(Path.GetTempPath(), TimeSpan.FromSeconds(30), environment, psql[0], psql[1..]);
    }
}

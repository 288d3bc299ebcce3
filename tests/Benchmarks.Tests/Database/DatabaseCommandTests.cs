using Benchmarks.Host.Platform;
using System.Diagnostics;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Database;

/// <summary>
/// <c>benchmarks database</c>, the database machine's crank job: ready once filled, names its
/// postmaster, serves a run on another "machine", stops on SIGTERM.
/// </summary>
public sealed class DatabaseCommandTests
{
    [Fact]
    public async Task The_database_job_serves_hello_world_to_a_run_and_stops_its_postgres_on_sigterm()
    {
        var port = LoopbackPort.Free();
        var info = new ProcessStartInfo(TestPaths.HostExecutable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { "database", "--listen", "127.0.0.1", "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "--advertise", "127.0.0.1" })
        {
            info.ArgumentList.Add(argument);
        }

        using var database = Process.Start(info)!;
        string? connection = null;
        var postmaster = 0;
        try
        {
            using var ready = new CancellationTokenSource(TimeSpan.FromSeconds(90));
            while (await database.StandardOutput.ReadLineAsync(ready.Token) is { } line
                && !line.Contains("ready to accept connections", StringComparison.Ordinal))
            {
                connection = line.StartsWith("Connection string: ", StringComparison.Ordinal) ? line["Connection string: ".Length..] : connection;
                postmaster = line.StartsWith("##ChildProcessId:", StringComparison.Ordinal) ? int.Parse(line["##ChildProcessId:".Length..]) : postmaster;
            }

            Assert.Equal($"Host=127.0.0.1;Port={port};Username=benchmarkdbuser;Password=benchmarkdbpass;Database=hello_world", connection);
            Assert.Contains("postgres", await File.ReadAllTextAsync($"/proc/{postmaster}/comm"), StringComparison.Ordinal);

            // A run against it as against any existing database: TechEmpower's exact fortunes page, every answer valid.
            var results = TestPaths.NewTempDirectory();
            var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(3), "run", "fortunes", "--server", "sockets", "--database", connection!, "-d",
                "2s", "-w", "1s", "-c", "16", "--results", results);
            Assert.True(run.ExitCode == 0, run.ToString());
            var document = StoredRuns.Single(results);
            Assert.Equal(RunStatus.Succeeded, document.Status);
            Assert.Equal($"existing PostgreSQL (127.0.0.1, on this machine: pid {postmaster})", document.Parameters["database"]);
            Assert.Equal(0, document.Measurements["http/requests/badresponses"]);
            Assert.True(document.Measurements["http/requests"] > 100);
            Assert.True(document.Measurements["db/cpu/user"] > 0, "a database on this machine is sampled too");
        }
        finally
        {
            using var kill = Process.Start("kill", ["-TERM", database.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
            await kill.WaitForExitAsync();
        }

        using var stopped = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await database.WaitForExitAsync(stopped.Token);
        Assert.Equal(0, database.ExitCode);
        Assert.False(File.Exists($"/proc/{postmaster}/comm"), "the postmaster is gone");
    }
}

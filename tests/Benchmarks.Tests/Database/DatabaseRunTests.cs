using System.Globalization;
using System.Text.RegularExpressions;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Database;

/// <summary><c>run</c> and <c>verify</c> with the database scenarios: the private PostgreSQL they start, its CPU, its checks, and the ways it fails.</summary>
[LongRunning]
public sealed partial class DatabaseRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task Run_starts_a_private_postgres_samples_its_cpu_and_stops_it()
    {
        var temp = TestPaths.NewTempDirectory();
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, new Dictionary<string, string> { ["TMPDIR"] = temp },
            "run", "db", "--server", "libuv", "--duration", "3s", "--warmup", "1s", "-c", "32", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.StartsWith("private PostgreSQL ", document.Parameters["database"], StringComparison.Ordinal);
        Assert.True(document.Measurements["db/cpu/user"] > 0, "the database worked in user mode");
        Assert.True(document.Measurements["db/cpu"] >= document.Measurements["db/cpu/user"]);
        Assert.Contains("db/cpu/kernel", document.Measurements.Keys);
        Assert.All(document.Samples, s => Assert.Contains("db/cpu", s.Values.Keys));
        Assert.True(document.Measurements["http/rps/mean"] > 100, run.Output);
        Assert.Equal(0, document.Measurements["http/requests/badresponses"]);
        Assert.Contains("Verified:", run.Output, StringComparison.Ordinal);

        // Stopped and gone: no postmaster, no data folder.
        var pid = int.Parse(Pid().Match(document.Parameters["database"]).Groups[1].Value, CultureInfo.InvariantCulture);
        Assert.False(File.Exists($"/proc/{pid}/stat") && !File.ReadAllText($"/proc/{pid}/stat").Contains(") Z", StringComparison.Ordinal),
            "the postmaster still runs");
        Assert.Empty(Directory.GetDirectories(temp, "benchmarks-db-*"));
    }

    [Fact]
    public async Task Verify_checks_the_queries_parameter_and_counts_statements_in_the_database()
    {
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "verify", "--scenario", "queries", "--server", "sockets");
        Assert.True(run.ExitCode == 0, run.ToString());
        foreach (var (query, rows) in new[] { ("2", 2), ("0", 1), ("foo", 1), ("501", 500), ("", 1) })
        {
            Assert.Contains($"PASS  /queries?queries={query} answers {rows} row(s)", run.Output, StringComparison.Ordinal);
        }

        Assert.Contains("PASS  /queries?queries=20: the rows are as the database holds them", run.Output, StringComparison.Ordinal);
        Assert.Contains("PASS  pg_stat_statements: World selects 5,120 for 5,120 expected", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Verify_judges_every_fortunes_check_by_the_rows_the_database_holds()
    {
        // A database with one more fortune than TechEmpower's twelve: the server lists it, and every check reads it from there.
        var database = await HelloWorldDatabase.CreateAsync();
        await using (var connection = new Npgsql.NpgsqlConnection(database))
        {
            await connection.OpenAsync();
            await using var insert = new Npgsql.NpgsqlCommand(
                "INSERT INTO fortune (id, message) VALUES ((SELECT max(id) + 1 FROM fortune), 'A thirteenth <fortune> & more')", connection);
            await insert.ExecuteNonQueryAsync();
        }

        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "verify", "--scenario", "fortunes", "--server", "sockets", "--database",
            database);
        foreach (var check in new[] { "/fortunes body", "/fortunes 16 pipelined requests answered in order", "/fortunes request split across TCP segments",
            "/fortunes: every fortune in the database and the added one, sorted and escaped" })
        {
            Assert.Contains($"PASS  {check}", run.Output, StringComparison.Ordinal);
        }

        // (The test cluster has no pg_stat_statements: that check alone may fail, and says so.)
        Assert.All(run.Output.Split('\n').Where(l => l.Contains("FAIL", StringComparison.Ordinal)),
            l => Assert.Contains("pg_stat_statements", l, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Verify_rejects_fortunes_that_are_not_escaped_sorted_or_read_from_the_database()
    {
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "verify", "--scenario", "fortunes-wrong", "--plugins",
            TestPaths.SamplePluginDirectory);
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("FAIL  /fortunes: every fortune in the database and the added one, sorted and escaped: fortune 2 is not HTML-escaped", run.Output,
            StringComparison.Ordinal);
        Assert.Contains("FAIL  pg_stat_statements: Fortune selects 0 for 256 expected", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_database_that_goes_away_mid_run_fails_the_run_with_its_cause_and_keeps_what_was_measured()
    {
        var temp = TestPaths.NewTempDirectory();
        var results = TestPaths.NewTempDirectory();
        using var live = LiveHostRun.Start(results, new Dictionary<string, string> { ["TMPDIR"] = temp },
            "run", "db", "--server", "sockets", "--duration", "8s", "--warmup", "1s", "--no-verify", "-c", "16", "--results", results);

        // Two seconds into the window (however long the cluster took to start), kill the database outright.
        await live.WaitForLineAsync(WindowSecond(), TimeSpan.FromSeconds(90));
        var pidFile = Assert.Single(Directory.GetDirectories(temp, "benchmarks-db-*"), d => File.Exists(Path.Combine(d, "data", "postmaster.pid")));
        var killed = int.Parse(File.ReadLines(Path.Combine(pidFile, "data", "postmaster.pid")).First(), System.Globalization.CultureInfo.InvariantCulture);
        System.Diagnostics.Process.GetProcessById(killed).Kill();
        var exit = await live.WaitForExitAsync(s_timeout);
        var run = new HostRun(exit, live.Output, live.Error);

        Assert.True(killed > 0, "the postmaster was found and killed");
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("error: the database stopped during the run", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.StartsWith("the database stopped during the run", document.Error, StringComparison.Ordinal);
        Assert.Contains("request failed", document.Error, StringComparison.Ordinal);
        Assert.True(document.Measurements["http/requests/badresponses"] > 0, "the requests after the database went away are counted as errors");
        Assert.True(document.Measurements["http/requests"] > document.Measurements["http/requests/badresponses"], "what was measured before is kept");
    }

    [Fact]
    public async Task A_machine_without_postgres_gets_one_line_naming_the_package_and_a_failed_run()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, new Dictionary<string, string> { ["BENCHMARKS_POSTGRES_BIN"] = TestPaths.NewTempDirectory() },
            "run", "fortunes", "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("error: PostgreSQL is not installed", run.Output, StringComparison.Ordinal);
        Assert.Contains("install the 'postgresql' package", run.Output, StringComparison.Ordinal);
        Assert.Equal(RunStatus.Failed, StoredRuns.Single(results).Status);
    }

    [Fact]
    public async Task An_existing_database_without_the_tables_is_refused_and_left_as_it_was()
    {
        var postgres = await PostgresServer.SharedAsync();
        var empty = await postgres.CreateDatabaseAsync();
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "db", "--database", empty, "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("--database has no World or Fortune table", run.Output, StringComparison.Ordinal);
        await using var connection = new Npgsql.NpgsqlConnection(empty);
        await connection.OpenAsync();
        await using var tables = new Npgsql.NpgsqlCommand("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", connection);
        Assert.Equal(0L, await tables.ExecuteScalarAsync());
    }

    /// <summary>The first progress line two or more seconds into the window (on a busy machine the ticks may read 1.9 s, then 3.0 s).</summary>
    [GeneratedRegex(@"^\s+\[\s*[2-5]\.\ds\]")]
    private static partial Regex WindowSecond();

    [GeneratedRegex("pid (\\d+)")]
    private static partial Regex Pid();
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Database;

/// <summary>
/// A database slow to answer, seen from the server: how many commands its Npgsql waits on. It
/// measures, so it runs alone: on a machine busy with other tests the requests wait for a CPU,
/// not for the database (one of 16 in flight, and the verdict rightly names the machine).
/// </summary>
[Collection(Measuring.Name)]
public sealed class SlowDatabaseTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [MeasuredFact]
    public async Task A_database_slow_to_answer_is_seen_in_the_commands_the_server_waits_on()
    {
        // A third party's scenario whose every request waits 5 ms on pg_sleep: the server's own Npgsql counts the commands in flight.
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "slow-query", "--plugins", TestPaths.SamplePluginDirectory, "--no-verify", "-d", "3s",
            "-w", "1s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        var executing = document.Measurements["npgsql-meter/executing-commands"];
        // The count is a gauge: each second's value is the mean of the four instants the server's meter
        // published in it. At one instant a second a steady run read 1, 3 and 15 (a window's mean of
        // 6.3, under the rule's half of the 16); the rule's share is the floor.
        var floor = Benchmarks.Host.Verdicts.BottleneckRule.DatabaseWaitShare * 16;
        Assert.True(executing >= floor && executing <= 16, $"{executing} of 16 connections' requests waiting on the database, seconds: "
            + string.Join(", ", document.Samples.Select(s => s.Values.GetValueOrDefault("npgsql-meter/executing-commands"))));
        Assert.Equal(0, document.Measurements["npgsql-meter/pending-connection-requests"]);

        // The same figures on a machine with nothing else busy: the database's latency is the cause (no other test shares the machine, but its figures are
        // pinned to an idle one's).
        document.Measurements["machine/cpu/idle"] = 45;
        document.Measurements["machine/server-cpus/idle"] = 60;
        document.Measurements["benchmarks/cpu/mean"] = Math.Min(document.Measurements["benchmarks/cpu/mean"], 40);
        var cause = Benchmarks.Host.Verdicts.BottleneckRule.Judge(document)[0];
        Assert.True(cause.Kind == "database", cause.Text);
    }
}

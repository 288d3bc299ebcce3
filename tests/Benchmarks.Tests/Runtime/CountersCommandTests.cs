using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runtime;

/// <summary><c>benchmarks counters PID</c>: a running server's counters each second; a process without them, one line.</summary>
public sealed class CountersCommandTests
{
    [Fact]
    public async Task A_running_server_shows_its_counters_each_second()
    {
        await using var server = await ServeProcess.StartAsync("kestrel", "json");
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), TimeSpan.FromSeconds(60), "counters",
            server.Pid.ToString(System.Globalization.CultureInfo.InvariantCulture), "-d", "2s");
        Assert.True(run.ExitCode == 0, run.ToString());
        var lines = run.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.InRange(lines.Count(l => l.StartsWith("alloc ", StringComparison.Ordinal) && l.Contains("| pool ", StringComparison.Ordinal)), 1, 3);

        // Four reports a second of each of the runtime's 27 counters (crank's 1 s would give under 108 in 2 s); the session's
        // start and its stop's flush add a second or so on a busy machine, so up to five seconds' worth.
        var reports = int.Parse(lines[^1].Split(' ')[0].Replace(",", "", StringComparison.Ordinal), System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(reports is >= 27 * 4 and <= 27 * 4 * 5, $"{reports} reports in 2 s:\n{run.Output}");
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_process_without_a_diagnostics_port_or_a_bad_interval_is_one_line()
    {
        var none = await InProcessCli.InvokeAsync("counters", "1", "-d", "1s");
        Assert.Equal(1, none.ExitCode);
        Assert.StartsWith("error: no runtime counters from process 1: ", none.Error, StringComparison.Ordinal);
        Assert.Single(none.Error.Trim().Split('\n'));

        var interval = await InProcessCli.InvokeAsync("counters", "1", "--interval", "0");
        Assert.Equal(2, interval.ExitCode);
        Assert.Contains("--interval must be between 0.1 and 60 seconds", interval.Error, StringComparison.Ordinal);
    }
}

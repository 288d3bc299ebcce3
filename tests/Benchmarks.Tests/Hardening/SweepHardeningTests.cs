using System.Globalization;
using System.Text.RegularExpressions;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Hardening;

/// <summary>A sweep loses no cell it could not store, checks every cell before the first starts, and stops as a whole on a signal.</summary>
[LongRunning]
public sealed class SweepHardeningTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Fact]
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    public async Task A_sweep_whose_cells_cannot_be_stored_rescues_each_and_exits_3()
    {
        using var results = ReadOnlyFolder.Create();
        var temp = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(temp, s_timeout, new Dictionary<string, string> { ["TMPDIR"] = temp },
            "run", "plaintext", "--server", "sockets", "-c", "4,8", "-d", "1s", "-w", "0s", "--no-verify", "--results", results.Path);
        Assert.True(run.ExitCode == 3, run.ToString());
        // Both cells ran and neither was stored (whether a one-second cell on a busy machine also failed is not this test's question).
        Assert.True(Regex.IsMatch(run.Output, @"Sweep \S+: 2 cells, [0-2] failed, 2 not stored"), run.ToString());
        var rescued = Directory.GetFiles(temp, "benchmarks-unsaved-run-*.json");
        Assert.Equal(2, rescued.Length);
        Assert.Equal(["4", "8"], rescued.Select(f => RunDocumentJson.Deserialize(File.ReadAllText(f)).Parameters["connections"]).Order(StringComparer.Ordinal));
        Assert.Empty(Directory.GetDirectories(temp, "benchmarks-sweep-*"));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("-c", "4,0", "--connections must be between 1 and")]
    [InlineData("--server", "sockets,nosuch", "Unknown server 'nosuch'")]
    [InlineData("--rate", "20k,abc", "Invalid rate 'abc'")]
    [InlineData("-c", ",", "holds an empty value")]
    [InlineData("-c", "8,,16", "holds an empty value")]
    public async Task Every_cell_is_checked_before_the_first_starts(string option, string values, string error)
    {
        var results = TestPaths.NewTempDirectory();
        string[] server = option == "--server" ? [] : ["--server", "sockets"];
        var run = await InProcessCli.InvokeAsync(["run", "plaintext", .. server, option, values, "-d", "1s", "-w", "0s", "--no-verify", "--results", results]);
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.Contains(error, run.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("cell 1 of", run.Output, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(results, "*.json"));
    }

    [Theory]
    [InlineData("INT", "interrupted (Ctrl+C)")]
    [InlineData("TERM", "terminated (SIGTERM)")]
    public async Task A_signal_stops_the_whole_sweep_not_just_its_cell(string signal, string reason)
    {
        var results = TestPaths.NewTempDirectory();
        using var run = LiveHostRun.Start(results, null, "run", "plaintext", "--server", "sockets", "-c", "1,2,3,4,5,6,7,8", "-d", "20s", "-w", "0s",
            "--no-verify", "--results", results);
        await run.WaitForOutputAsync("req/s | server cpu", TimeSpan.FromSeconds(60));
        await run.SignalAsync(signal);
        var exit = await run.WaitForExitAsync(TimeSpan.FromSeconds(30));
        Assert.True(exit == 130, $"exit {exit}\n{run}");
        Assert.Contains("interrupted after 1 of 8 cells", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("cell 2 of 8", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains(reason, document.Error, StringComparison.Ordinal);
        Assert.Empty(ProcessTable.WithArgument(run.ProcessId.ToString(CultureInfo.InvariantCulture)));
    }
}

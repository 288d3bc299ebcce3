using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runs;

/// <summary>
/// <c>run --startup N</c>: N fresh servers, each timed from its process's start to its ready line and
/// to its first response, with the CPU the start took and the memory held at rest, and no load; the
/// starts are the run's iterations, so each figure has its spread. A load run records its server's
/// start the same way.
/// </summary>
public sealed class StartupRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task Three_starts_are_three_iterations_each_ready_before_its_first_response_and_no_load_runs()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "sockets", "--startup", "3", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.Equal("3", document.Parameters["startup"]);
        Assert.Equal("none", document.Load);
        Assert.DoesNotContain("connections", document.Parameters.Keys);
        Assert.Equal(3, document.Iterations!.Count);
        Assert.All(document.Iterations, start =>
        {
            Assert.True(start["benchmarks/start-time"] is > 10 and < 30_000, $"ready in {start["benchmarks/start-time"]} ms");
            Assert.True(start["benchmarks/startup/first-response"] > start["benchmarks/start-time"] + start["http/firstrequest"] - 1,
                "the first response comes after the ready line and its request");
            Assert.True(start["benchmarks/startup/cpu"] > 10 && start["benchmarks/working-set/rest"] > 10, "a .NET server's start takes CPU and memory");
            // Its private part (heap, stacks, generated code) is most of a .NET server's and never more than all of it.
            Assert.True(start["benchmarks/working-set/private/rest"] is > 5 and var own && own <= start["benchmarks/working-set/rest"],
                $"{start["benchmarks/working-set/private/rest"]:0.0} MB private of {start["benchmarks/working-set/rest"]:0.0} MB at rest");
        });
        Assert.Contains("benchmarks/startup/first-response", document.Spread.Keys);
        Assert.Empty(document.Samples);
        Assert.DoesNotContain("http/rps/mean", document.Measurements.Keys);
        Assert.Equal(3, run.Output.Split('\n').Count(l => l.StartsWith("note: start ", StringComparison.Ordinal)));
        Assert.Contains("benchmarks/startup/first-response", run.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("loading http", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_load_run_records_its_servers_start_and_first_request()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "sockets", "-d", "2s", "-w", "1s", "-c", "8", "--no-verify",
            "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        var m = StoredRuns.Single(results).Measurements;
        Assert.True(m["benchmarks/start-time"] > 10 && m["http/firstrequest"] > 0 && m["benchmarks/startup/first-response"] > m["benchmarks/start-time"],
            string.Join(", ", m.Where(p => p.Key.Contains("start", StringComparison.Ordinal))));
        Assert.True(m["benchmarks/working-set/rest"] <= m["benchmarks/working-set"] + 1, "memory at rest is not above the loaded peak");
        Assert.True(m["benchmarks/working-set/private"] is > 5 and var own && own <= m["benchmarks/working-set"],
            $"{m["benchmarks/working-set/private"]:0.0} MB private of {m["benchmarks/working-set"]:0.0} MB loaded");
        Assert.True(m["benchmarks/working-set/private/rest"] <= m["benchmarks/working-set/private"] + 1, "private memory at rest is not above the loaded peak");
    }
}

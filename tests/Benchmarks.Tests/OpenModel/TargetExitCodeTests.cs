using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.OpenModel;

/// <summary>
/// A missed <c>--slo</c> target is an exit code of its own (5) on <c>run</c> and <c>load</c>, for
/// every protocol's load, so CI can gate on it; a met one exits 0.
/// </summary>
public sealed class TargetExitCodeTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("http", "plaintext", "/plaintext")]
    [InlineData("tcp", "tcp-echo", "")]
    public async Task Load_prints_the_target_and_exits_5_when_it_is_missed(string scheme, string scenario, string path)
    {
        await using var serve = await ServeProcess.StartAsync("sockets", scenario, scheme: scheme);
        string[] load = ["load", .. scheme == "tcp" ? new[] { "--tcp" } : [], "--url", $"{scheme}://127.0.0.1:{serve.Port}{path}", "-c", "4", "-d", "1s", "-w",
            "0s"];

        var missed = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, [.. load, "--slo", "p99<1us"]);
        Assert.True(missed.ExitCode == 5, missed.ToString());
        Assert.Contains("target p99<1us: NOT met: p99 was", missed.Output, StringComparison.Ordinal);

        var met = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, [.. load, "--slo", "p99<10s,errors<1%"]);
        Assert.True(met.ExitCode == 0, met.ToString());
        Assert.Contains("target p99<10s,errors<1%: met", met.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_run_that_misses_its_target_is_stored_as_succeeded_and_exits_5()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "plaintext", "--server", "sockets", "--no-verify", "-c", "4", "-d", "1s", "-w", "0s",
            "--slo", "p99<1us", "--results", results);
        Assert.True(run.ExitCode == 5, run.ToString());
        Assert.Contains("target p99<1us: NOT met", run.Output, StringComparison.Ordinal);
        Assert.Equal(RunStatus.Succeeded, StoredRuns.Single(results).Status);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task A_target_that_cannot_be_read_is_a_usage_error_before_any_load()
    {
        var run = await InProcessCli.InvokeAsync("load", "--url", "http://127.0.0.1:1/", "--slo", "p42<1ms");
        Assert.True(run.ExitCode == 2, run.ToString());
        Assert.StartsWith("error: 'p42<1ms': no latency percentile 42", run.Error, StringComparison.Ordinal);
    }
}

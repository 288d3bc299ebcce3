using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

public sealed class VerifyTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("kestrel")]
    [InlineData("sockets")]
    [InlineData("libuv")]
    [InlineData("iouring")]
    public async Task Every_built_in_scenario_passes_every_check(string server)
    {
        var run = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "verify", "--server", server, "-s", "plaintext", "-s", "json");
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.DoesNotContain("FAIL", run.Output, StringComparison.Ordinal);
        foreach (var check in new[] { "Server header", "Date changes", "16 pipelined requests answered in order", "request split across TCP segments",
            "/json body", "/plaintext Content-Type" })
        {
            Assert.Contains("PASS  ", run.Output, StringComparison.Ordinal);
            Assert.Contains(check, run.Output, StringComparison.Ordinal);
        }

        Assert.Contains("All checks passed.", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_server_without_server_and_date_headers_fails_and_run_refuses_to_load_it()
    {
        var verify = await HostRun.StartAsync(TestPaths.NewTempDirectory(), s_timeout, "verify", "--server", "faulty", "-s", "greeting", "--plugins",
            TestPaths.SamplePluginDirectory);
        Assert.True(verify.ExitCode == 1, verify.ToString());
        Assert.Contains("FAIL  /greeting Server header: missing", verify.Output, StringComparison.Ordinal);
        Assert.Contains("FAIL  /greeting Date changes", verify.Output, StringComparison.Ordinal);
        Assert.Contains("PASS  /greeting body", verify.Output, StringComparison.Ordinal);

        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, "run", "greeting", "--server", "faulty", "--plugins", TestPaths.SamplePluginDirectory, "-d",
            "1s", "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Failed, document.Status);
        Assert.Contains("failed verification: greeting: /greeting Server header: missing", document.Error, StringComparison.Ordinal);
    }
}

using System.Diagnostics;
using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Sweeps;

/// <summary><c>run --proxy</c>: a real nginx or HAProxy in front of the server, checked and loaded through, its CPU sampled.</summary>
public sealed class ProxyTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [Theory]
    [InlineData("nginx")]
    [InlineData("haproxy")]
    public async Task The_plaintext_checks_and_the_load_go_through_the_proxy_and_its_cpu_is_reported(string proxy)
    {
        Tools.Require(proxy);
        var results = TestPaths.NewTempDirectory();
        var temp = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, new Dictionary<string, string> { ["TMPDIR"] = temp },
            "run", "plaintext", "--server", "sockets", "--proxy", proxy, "-c", "16", "-d", "2s", "-w", "1s", "--results", results);
        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Contains($"Proxy: {proxy} (pid ", run.Output, StringComparison.Ordinal);
        Assert.Contains("Verified:", run.Output, StringComparison.Ordinal);
        var document = StoredRuns.Single(results);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.Equal(proxy, document.Parameters["proxy"]);
        Assert.True(document.Measurements["proxy/cpu/user"] + document.Measurements["proxy/cpu/kernel"] > 1, "the proxy worked");
        Assert.Equal(0, document.Measurements["http/requests/badresponses"]);
        Assert.All(document.Samples, s => Assert.Contains("proxy/cpu", s.Values.Keys));
        Assert.Empty(Directory.GetDirectories(temp, $"benchmarks-{proxy}-*"));
    }

    [Fact]
    public async Task A_missing_proxy_is_one_line_naming_the_package()
    {
        var results = TestPaths.NewTempDirectory();
        var run = await HostRun.StartAsync(results, s_timeout, new Dictionary<string, string> { ["BENCHMARKS_PROXY_BIN"] = TestPaths.NewTempDirectory() },
            "run", "plaintext", "--proxy", "haproxy", "--results", results);
        Assert.True(run.ExitCode == 1, run.ToString());
        Assert.Contains("error: haproxy is not installed: install the 'haproxy' package (apt-get install haproxy).", run.Output, StringComparison.Ordinal);
        Assert.Equal(RunStatus.Failed, StoredRuns.Single(results).Status);
    }
}

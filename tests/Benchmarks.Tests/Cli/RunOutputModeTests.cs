using Benchmarks.Host.Documents;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Cli;

/// <summary>
/// <c>run --quiet</c> prints the run in one line; <c>run --json -</c> prints the run document on
/// standard output, and every line a person reads on standard error, so a script can pipe it.
/// </summary>
public sealed class RunOutputModeTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Quiet_prints_one_line_and_json_dash_prints_only_the_document_on_standard_output()
    {
        string[] run = ["run", "plaintext", "--server", "sockets", "--no-verify", "-c", "4", "-d", "1s", "-w", "0s", "--slo", "p99<10s"];

        var quietResults = TestPaths.NewTempDirectory();
        var quiet = await HostRun.StartAsync(quietResults, s_timeout, [.. run, "--quiet", "--results", quietResults]);
        Assert.True(quiet.ExitCode == 0, quiet.ToString());
        var stored = StoredRuns.Single(quietResults);
        var line = Assert.Single(quiet.Output.TrimEnd().Split('\n'));
        Assert.Matches(@"^plaintext on sockets: succeeded; [\d,]+ req/s, p99 [\d.]+ ms, 0 errors, target p99<10s met; bound: [^;:]+; run [0-9a-f]{8}$", line);
        Assert.EndsWith($"run {stored.Id[..8]}", line, StringComparison.Ordinal);

        var jsonResults = TestPaths.NewTempDirectory();
        var json = await HostRun.StartAsync(jsonResults, s_timeout, [.. run, "--json", "-", "--results", jsonResults]);
        Assert.True(json.ExitCode == 0, json.ToString());
        var document = RunDocumentJson.Deserialize(json.Output);
        Assert.Equal(RunStatus.Succeeded, document.Status);
        Assert.Equal(StoredRuns.Single(jsonResults).Id, document.Id);
        Assert.True(document.Measurements["http/rps/mean"] > 0);
        Assert.Contains("plaintext on sockets (Linux", json.Error, StringComparison.Ordinal);
        Assert.Contains("target p99<10s: met", json.Error, StringComparison.Ordinal);
    }
}

using System.Diagnostics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>The service definitions shipped for the agent.</summary>
public sealed class AgentServiceTests
{
    [Fact]
    public async Task The_systemd_unit_is_valid_and_starts_the_agent_as_a_notify_service()
    {
        var unit = await File.ReadAllTextAsync(Path.Combine(TestPaths.RepoRoot, "eng", "benchmarks-agent.service"));
        Assert.Contains("Type=notify", unit, StringComparison.Ordinal);
        Assert.Contains("KillMode=control-group", unit, StringComparison.Ordinal);
        Assert.Matches(@"ExecStart=/opt/benchmarks/benchmarks agent --url http://0\.0\.0\.0:5010 --allow [0-9./]+ --jobs-dir ", unit);

        // systemd-analyze checks the unit's syntax and that ExecStart's program exists: point it at this build,
        // and drop the service user (created by the install steps, absent here).
        var directory = TestPaths.NewTempDirectory();
        var path = Path.Combine(directory, "benchmarks-agent.service");
        var local = string.Join('\n',
            unit.Split('\n').Where(l => !l.StartsWith("User=", StringComparison.Ordinal) && !l.StartsWith("Group=", StringComparison.Ordinal)))
            .Replace("/opt/benchmarks/benchmarks", TestPaths.HostExecutable, StringComparison.Ordinal);
        await File.WriteAllTextAsync(path, local);
        using var verify = Process.Start(new ProcessStartInfo("systemd-analyze", ["verify", path]) { RedirectStandardError = true,
            RedirectStandardOutput = true })!;
        var errors = await verify.StandardError.ReadToEndAsync();
        await verify.WaitForExitAsync();
        Assert.True(verify.ExitCode == 0 && !errors.Contains(path, StringComparison.Ordinal), errors);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public async Task Asking_for_a_windows_service_on_linux_is_a_usage_error()
    {
        var run = await InProcessCli.InvokeAsync("agent", "--windows-service");
        Assert.Equal(2, run.ExitCode);
        Assert.Contains("only on Windows", run.Error, StringComparison.Ordinal);
    }
}

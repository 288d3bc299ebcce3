using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// io_uring turned off for the whole machine by its sysctl (<c>kernel.io_uring_disabled</c>), the
/// real fault: the server and the load engine are refused in one line that names the sysctl, and
/// both the server models and the load engines that do not use io_uring run on. The sysctl is the
/// machine's, so these run in the measuring collection, alone, and put the value back however
/// they end.
/// </summary>
[Collection(Measuring.Name)]
public sealed class IoUringSysctlTests
{
    private const string Sysctl = "/proc/sys/kernel/io_uring_disabled";
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [MeasuredFact]
    public async Task With_io_uring_disabled_by_its_sysctl_the_server_and_the_engine_are_refused_naming_it()
    {
        Assert.True(OperatingSystem.IsLinux() && File.Exists(Sysctl), $"{Sysctl} is not on this machine: the kernel is older than 6.6 or not Linux");
        var before = (await File.ReadAllTextAsync(Sysctl)).Trim();
        Assert.True(before == "0", $"{Sysctl} is {before} before the test: io_uring is already limited here");
        var folder = TestPaths.NewTempDirectory();
        try
        {
            await File.WriteAllTextAsync(Sysctl, "2");
            var servers = await HostRun.StartAsync(folder, s_timeout, "servers");
            Assert.True(servers.ExitCode == 0, servers.ToString());
            var line = servers.Output.Split('\n').Single(l => l.StartsWith("iouring ", StringComparison.Ordinal));
            Assert.Contains("unavailable: io_uring is disabled on this machine (sysctl kernel.io_uring_disabled = 2)", line, StringComparison.Ordinal);

            var run = await HostRun.StartAsync(folder, s_timeout, "run", "plaintext", "--server", "iouring", "-d", "1s", "--results", folder);
            Assert.Equal(2, run.ExitCode);
            Assert.Single(run.Error.Trim().Split('\n'));
            Assert.Contains("sysctl kernel.io_uring_disabled = 2", run.Error, StringComparison.Ordinal);

            // The load engine is refused the same way, before a connection is made; the epoll engine loads the same server.
            await using var server = await ServeProcess.StartAsync("sockets");
            var url = $"http://127.0.0.1:{server.Port}/plaintext";
            var engine = await HostRun.StartAsync(folder, s_timeout, "load", "--url", url, "--load-engine", "iouring", "-c", "4", "-d", "1s", "-w", "0s");
            Assert.Equal(2, engine.ExitCode);
            Assert.Contains("sysctl kernel.io_uring_disabled = 2", engine.Error, StringComparison.Ordinal);
            var epoll = await HostRun.StartAsync(folder, s_timeout, "load", "--url", url, "--load-engine", "epoll", "-c", "4", "-d", "1s", "-w", "0s");
            Assert.True(epoll.ExitCode == 0, epoll.ToString());
        }
        finally
        {
            await File.WriteAllTextAsync(Sysctl, before);
        }

        Assert.Equal(before, (await File.ReadAllTextAsync(Sysctl)).Trim());
    }
}

using System.Diagnostics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Runtime;

/// <summary>
/// A trace that cannot be written is a note on a stored run, never a lost one: with the temporary folder full, a
/// <c>--trace</c> run once ended in an unhandled "No space left on device" after 39 s, stored nothing and left half a
/// <c>.nettrace</c> behind.
/// </summary>
public sealed class TraceFaultTests
{
    [Fact]
    public async Task A_full_temporary_folder_fails_the_trace_not_the_run_and_leaves_no_partial_trace()
    {
        Assert.True(OperatingSystem.IsLinux() && Environment.UserName == "root", "mounts a small tmpfs as the temporary folder (root)");
        var temp = TestPaths.NewTempDirectory();
        await RunAsync("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", temp);
        try
        {
            // Room for the server's diagnostics socket and little else: the trace fills the rest.
            await RunAsync("dd", "if=/dev/zero", $"of={Path.Combine(temp, "filler")}", "bs=64k", "count=60");
            var results = TestPaths.NewTempDirectory();
            var run = await HostRun.StartAsync(results, TimeSpan.FromMinutes(2), new Dictionary<string, string> { ["TMPDIR"] = temp },
                "run", "plaintext", "--server", "sockets", "--trace-seconds", "2s", "-d", "3s", "-w", "1s", "--no-verify", "--no-counters", "--results",
                results);

            Assert.True(run.ExitCode == 0, run.ToString());
            Assert.Matches("could not be (written|read).*(No space left on device|space)", run.Output);
            var document = StoredRuns.Single(results);
            Assert.Null(document.Trace);
            Assert.Empty(Directory.GetFiles(temp, "benchmarks-trace-*"));
        }
        finally
        {
            await RunAsync("umount", "-l", temp);
        }
    }

    private static async Task RunAsync(string program, params string[] arguments)
    {
        using var process = Process.Start(program, arguments);
        await process.WaitForExitAsync();
        Assert.True(process.ExitCode == 0, $"{program} {string.Join(' ', arguments)} exited with {process.ExitCode}");
    }
}

using System.Diagnostics;
using Benchmarks.Host.Platform;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Platform;

/// <summary>
/// The CPU quota and the memory limit against the real kernel: a busy loop started inside a
/// 0.2-CPU quota gets about a fifth of a core and is throttled in most periods; a process that
/// writes past a 32 MB limit is killed for memory and the kill is counted; the group is gone once
/// the limit is disposed.
/// </summary>
[Collection(Measuring.Name)]
public sealed class ResourceLimitTests
{
    [MeasuredFact]
    public async Task A_busy_loop_under_a_fifth_of_a_cpu_gets_a_fifth_and_is_throttled()
    {
        Assert.True(OperatingSystem.IsLinux(), "cgroups are Linux's");
        string folder;
        using (var limit = ResourceLimits.Create("test-cpu", 0.2, null))
        {
            var (fileName, arguments) = limit.Wrap("/bin/sh", ["-c", "while :; do :; done"]);
            using var busy = Process.Start(new ProcessStartInfo(fileName, arguments) { UseShellExecute = false })!;
            try
            {
                await Task.Delay(TimeSpan.FromSeconds(0.3));
                var (cpuBefore, readingBefore, clock) = (busy.TotalProcessorTime, limit.Read(), Stopwatch.StartNew());
                await Task.Delay(TimeSpan.FromSeconds(1.5));
                busy.Refresh();
                var share = (busy.TotalProcessorTime - cpuBefore).TotalSeconds / clock.Elapsed.TotalSeconds;
                var reading = limit.Read();
                var periods = reading.Periods - readingBefore.Periods;
                var throttled = reading.ThrottledPeriods - readingBefore.ThrottledPeriods;
                Assert.True(share is > 0.1 and < 0.3, $"the loop used {share:0.00} of a core under a 0.2 quota");
                Assert.True(periods >= 10 && throttled >= periods / 2 && reading.Throttled > TimeSpan.Zero,
                    $"{throttled} of {periods} periods throttled ({reading.Throttled.TotalMilliseconds:0} ms)");
                Assert.Equal("0.2 CPUs", limit.Description);
                folder = CgroupFolders.Of(busy.Id, "cpu");
                Assert.EndsWith($"benchmarks-{Environment.ProcessId}-test-cpu", folder, StringComparison.Ordinal);
            }
            finally
            {
                busy.Kill();
                await busy.WaitForExitAsync();
            }
        }

        Assert.False(Directory.Exists(folder), $"{folder} is left behind");
    }

    [MeasuredFact]
    public async Task A_process_writing_past_its_memory_limit_is_killed_and_the_kill_is_counted()
    {
        Assert.True(OperatingSystem.IsLinux(), "cgroups are Linux's");
        using var limit = ResourceLimits.Create("test-memory", null, 32L << 20);
        // The shell holds 256 MB of output in a variable.
        var (fileName, arguments) = limit.Wrap("/bin/sh", ["-c", "x=$(head -c 268435456 /dev/zero | tr '\\0' a); echo ${#x}"]);
        using var hungry = Process.Start(new ProcessStartInfo(fileName, arguments) { UseShellExecute = false, RedirectStandardOutput = true })!;
        await hungry.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));
        var reading = limit.Read();
        Assert.True(hungry.ExitCode == 137 && reading.OomKills >= 1,
            $"exit {hungry.ExitCode}, {reading.OomKills} OOM kills, peak {reading.PeakMemoryBytes:n0} bytes");
        Assert.InRange(reading.PeakMemoryBytes, 16L << 20, 33L << 20);
        Assert.Equal("32 MB", limit.Description);
    }

    [MeasuredFact]
    public void A_group_a_crashed_run_left_empty_is_removed_when_the_next_limit_is_made_and_a_running_tools_is_not()
    {
        Assert.True(OperatingSystem.IsLinux(), "cgroups are Linux's");

        // As if a tool with a pid no process has now had died with its group made: empty, owner gone.
        var parent = Path.GetDirectoryName(CgroupFolders.Of(Environment.ProcessId, "cpu") + "/")!;
        var stale = Path.Combine(parent, "benchmarks-4194300-left");
        var live = Path.Combine(parent, "benchmarks-1-live");
        Directory.CreateDirectory(stale);
        Directory.CreateDirectory(live);
        try
        {
            using var next = ResourceLimits.Create("test-next", 1, null);
            Assert.False(Directory.Exists(stale), $"{stale} is left behind");
            Assert.True(Directory.Exists(live), "a group of a running process (pid 1) was removed");
        }
        finally
        {
            Directory.Delete(live);
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => ResourceLimits.Create("bad", 0, null));
    }
}

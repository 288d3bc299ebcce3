using System.Diagnostics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Platform;

/// <summary>A slow measuring test names what it shared the machine with: the busiest processes over its window.</summary>
/// <remarks>Measuring: beside the parallel tier a busy loop may not get the CPU seconds it is named with.</remarks>
[Collection(Measuring.Name)]
public sealed class MachineLoadTests
{
    [MeasuredFact]
    public async Task A_busy_process_is_named_with_its_cpu_seconds()
    {
        Assert.True(OperatingSystem.IsLinux(), "reads /proc");
        var load = MachineLoad.Start();
        using var busy = Process.Start(new ProcessStartInfo("sh", ["-c", "while :; do :; done"]) { UseShellExecute = false })!;
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(1.2));
            var text = load.Describe();
            Assert.Matches($@"^machine \d+% busy \(steal \d+%\) over 1\.\d s; most CPU: .*{busy.Id} sh -c while :; do :; done (0\.[4-9]|1\.\d) s", text);
        }
        finally
        {
            busy.Kill();
        }
    }
}

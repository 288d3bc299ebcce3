using System.Diagnostics;
using System.Runtime.ExceptionServices;
using Benchmarks.Load.OpenModel;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Core;

/// <summary>
/// The run every protocol's load shares: warm-up (fixed, adaptive, gated), the open model's
/// backlog gate, the measured window (its CPU read at exactly its edges), then what is in flight
/// may finish for up to the timeout before the hard stop. A protocol supplies its connections as
/// an <see cref="ILoadDriver"/> and turns its counts and the <see cref="LoadWindow"/> into its result.
/// </summary>
internal static class LoadRun
{
    public static async Task<LoadWindow> RunAsync(ILoadDriver driver, LoadPhases phases, ArrivalSchedule? schedule, IProgress<LoadProgress>? progress,
        CancellationToken cancellationToken, TimeProvider? time = null)
    {
        ArgumentNullException.ThrowIfNull(driver);
        ArgumentNullException.ThrowIfNull(phases);
        var switches = driver.Switches;
        var clock = new LoadClock(driver.Totals, progress, driver.WarmupCompleted, time);
        try
        {
            var warmup = phases.Warmup;
            bool? steady = null;
            if (phases.WarmupMax is { } maximum)
            {
                var (took, settled) = await clock.WarmUpAsync(phases.Warmup, maximum, driver.WarmupCompleted, phases.WarmupGate, cancellationToken);
                (warmup, steady) = (took, settled);
            }
            else
            {
                warmup = await clock.FixedWarmUpAsync(phases.Warmup, phases.Timeout, cancellationToken);
            }

            long backlogAtStart = 0;
            if (schedule is not null)
            {
                var (took, backlog) = await BacklogDrain.WaitAsync(clock, schedule, warmup, cancellationToken);
                (warmup, backlogAtStart) = (warmup + took, backlog);
            }

            var cpuAtStart = ProcessCpu.Now();
            switches.Measuring = true;
            var windowStart = Stopwatch.GetTimestamp();
            clock.BeginWindow();
            await driver.WindowOpenedAsync(cancellationToken);
            var interrupted = await clock.RunWindowAsync(phases.Duration, cancellationToken);

            switches.Stopping = true;
            var windowEnd = Stopwatch.GetTimestamp();
            var cpu = ProcessCpu.Now().Since(cpuAtStart);
            driver.WindowClosed();
            var open = schedule is null ? null : new OpenModelTally(schedule.DueBetween(windowStart, windowEnd), schedule.Backlog);
            schedule?.Stop();
            clock.EndWindow();

            // What is in flight may finish (it belongs to the window) for up to one timeout; then it is unfinished.
            await Task.WhenAny(driver.Completion, Task.Delay(phases.Timeout, CancellationToken.None));
            await StopAsync(driver);
            if (driver.Completion.IsFaulted)
            {
                ExceptionDispatchInfo.Throw(driver.Completion.Exception!.InnerException!);
            }

            return new LoadWindow(windowStart, windowEnd, interrupted, clock.PerSecond)
            {
                WarmupTook = warmup,
                WarmupSteady = steady,
                BacklogAtStart = backlogAtStart,
                Open = open,
                CpuUserSeconds = cpu.User,
                CpuKernelSeconds = cpu.Kernel,
                CpuWindowSeconds = cpu.Seconds,
            };
        }
        finally
        {
            switches.Stopping = true;
            schedule?.Stop();
            await StopAsync(driver);
        }
    }

    /// <summary>The hard stop: every loop ends, whether it finished, was cancelled or failed.</summary>
    private static async Task StopAsync(ILoadDriver driver)
    {
        driver.Switches.AbortNow();
        driver.Abort();
        await driver.Completion.ContinueWith(static _ => { }, TaskScheduler.Default);
    }
}

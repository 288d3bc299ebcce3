using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Commands;

/// <summary>The line a run prints for each second it samples.</summary>
internal static class RunProgressLines
{
    /// <summary>One second of the measured window.</summary>
    /// <param name="sample">The second's sample.</param>
    /// <param name="unit">The load's rate unit (req/s, msg/s, resp/s).</param>
    public static string Window(RunSample sample, string unit)
    {
        var v = sample.Values;
        var rate = v.TryGetValue(SystemMeasures.LoadRate.Name, out var rps)
            ? rps.ToString("N0", CultureInfo.InvariantCulture) + " " + unit
            : "(rate at the end)";
        return string.Create(CultureInfo.InvariantCulture,
            $"  [{sample.Time,5:0.0}s] {rate,18} | server cpu {v.GetValueOrDefault(SystemMeasures.Cpu.Name),5:0.0}% (user " +
            $"{v.GetValueOrDefault(SystemMeasures.CpuUser.Name):0.0}%, kernel {v.GetValueOrDefault(SystemMeasures.CpuKernel.Name):0.0}%) " +
            $"| machine idle {v.GetValueOrDefault(SystemMeasures.MachineIdle.Name):0.0}% | net rx {v.GetValueOrDefault(SystemMeasures.NetRx.Name):0.0} " +
            $"Mbit/s{Runtime(v)}");
    }

    /// <summary>What the server's runtime did that second, when its counters are read: collections, pauses, the thread pool.</summary>
    private static string Runtime(SortedDictionary<string, double> v) =>
        v.TryGetValue(RuntimeMeasures.Gen0.Name, out var gcs)
            ? string.Create(CultureInfo.InvariantCulture,
                $" | gc {gcs:0.#}/s, paused {v.GetValueOrDefault(RuntimeMeasures.GcPause.Name):0.#}% | pool " +
                $"{v.GetValueOrDefault(RuntimeMeasures.Threads.Name):0} threads, {v.GetValueOrDefault(RuntimeMeasures.QueueLength.Name):0} queued")
            : "";

    /// <summary>One second of the warm-up: its rate, and the server's CPU and JIT when sampled.</summary>
    public static string Warmup(LoadProgress progress, HttpLoadOptions load, RunSample? sample, string unit)
    {
        var c = CultureInfo.InvariantCulture;
        var server = "";
        if (sample is not null)
        {
            server = string.Create(c, $" | server cpu {sample.Values.GetValueOrDefault(SystemMeasures.Cpu.Name),5:0.0}%");
            server += sample.Values.TryGetValue(SystemMeasures.Jit.Name, out var jit) ? string.Create(c, $", jit {jit:0} ms/s") : "";
            server += Runtime(sample.Values);
        }

        return load.WarmupMax is { } maximum
            ? string.Create(c,
                $"  warm-up {progress.Second}s (until steady, {Math.Ceiling(load.Warmup.TotalSeconds)}-{Math.Ceiling(maximum.TotalSeconds)}s) " +
                $"{progress.RequestsPerSecond,12:N0} {unit}{server}")
            : progress.Second <= Math.Ceiling(load.Warmup.TotalSeconds)
                ? string.Create(c, $"  warm-up {progress.Second}/{Math.Ceiling(load.Warmup.TotalSeconds)}s {progress.RequestsPerSecond,12:N0} {unit}{server}")
                : string.Create(c, $"  warm-up {progress.Second}s (until the first answer) {progress.RequestsPerSecond,12:N0} {unit}{server}");
    }
}

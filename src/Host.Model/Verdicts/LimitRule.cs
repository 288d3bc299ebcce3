using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// What a server's limits did to a run: the CPU quota is the cause when it throttled at least
/// <see cref="ThrottledLimit"/>% of its periods (the quota, not the CPUs, set the pace), and the
/// memory limit is named when it killed a process or the memory charged to it peaked at
/// <see cref="MemoryLimit"/>% of it or more.
/// </summary>
internal static class LimitRule
{
    public const double ThrottledLimit = 20;

    public const double MemoryLimit = 90;

    /// <summary>"the CPU quota: throttled in 84% of periods (…)", or null when the run had no quota or it seldom throttled.</summary>
    public static string? Quota(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var m = document.Measurements;
        if (Cpus(document) is not { } cpus || !m.TryGetValue(LimitMeasures.ThrottledShare.Name, out var share) || share < ThrottledLimit)
        {
            return null;
        }

        var c = CultureInfo.InvariantCulture;
        var used = m.GetValueOrDefault(SystemMeasures.CpuMean.Name) / 100 * CpuPlacement.For(document).Cores;
        var seen = m.TryGetValue(LimitMeasures.Processors.Name, out var processors)
            ? string.Create(c, $"; its runtime saw {processors:0} processor{(processors == 1 ? "" : "s")}")
            : "";
        return string.Create(c,
            $"the CPU quota: throttled in {share:0}% of periods ({cpus:0.##} CPU{(cpus == 1 ? "" : "s")}; " +
            $"the server used {used:0.##} {(Math.Round(used, 2) == 1 ? "CPU's" : "CPUs'")} worth, {m.GetValueOrDefault(SystemMeasures.CpuUser.Name):0.#}% " +
            $"user, {m.GetValueOrDefault(SystemMeasures.CpuKernel.Name):0.#}% kernel of the machine{seen})");
    }

    /// <summary>"the memory limit: 3 OOM kills" or "the memory limit: peak at 97% of 512MB", or null.</summary>
    public static string? Memory(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (!document.Parameters.TryGetValue(LimitMeasures.MemoryLimitParameter, out var text) || !SizeParser.TryParse(text, out var bytes) || bytes <= 0)
        {
            return null;
        }

        var m = document.Measurements;
        var c = CultureInfo.InvariantCulture;
        if (m.GetValueOrDefault(LimitMeasures.OomKills.Name) is var kills and > 0)
        {
            return string.Create(c, $"the memory limit: {kills:0} OOM kill{(kills == 1 ? "" : "s")} under {text}");
        }

        var peak = m.GetValueOrDefault(LimitMeasures.PeakMemory.Name) * 1024 * 1024 / bytes * 100;
        return peak >= MemoryLimit ? string.Create(c, $"the memory limit: the memory charged to it peaked at {peak:0}% of {text}") : null;
    }

    private static double? Cpus(RunDocument document) =>
        document.Parameters.TryGetValue(LimitMeasures.CpuLimitParameter, out var text)
            && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var cpus) ? cpus : null;
}

using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>
/// What inside a .NET server's runtime held it back, from its counters (docs/methodology.md,
/// "Inside the runtime"), each cause with its figures, in this order:
/// the GC, when it paused the server at least <see cref="GcPauseLimit"/>% of the window;
/// thread-pool starvation, when the pool injected threads: its peak at least
/// <see cref="InjectedThreads"/> above the server's CPUs, the pool's default minimum, above which
/// a thread is only added when work waits (a request holds a pool thread while it waits: sync over
/// async). The pool's growth is not required to be seen: it injects for blocking waits within the
/// first second, often before the counter session's first report;
/// lock contention, at least <see cref="ContentionsPerSecond"/> contentions a second and
/// <see cref="ContentionsPerRequest"/> per request. None of them: null.
/// </summary>
internal static class RuntimeRule
{
    public const double GcPauseLimit = 10;

    public const double InjectedThreads = 8;

    public const double ContentionsPerSecond = 100;

    public const double ContentionsPerRequest = 0.01;

    public static string? Judge(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var m = document.Measurements;
        var c = CultureInfo.InvariantCulture;
        var causes = new List<string>();
        if (m.TryGetValue(RuntimeMeasures.GcPause.Name, out var pause) && pause >= GcPauseLimit)
        {
            var parts = new List<string> { string.Create(c, $"paused the server {pause:0.#}% of the window") };
            if (m.TryGetValue(RuntimeMeasures.AllocatedPerRequest.Name, out var allocated))
            {
                parts.Add($"{Bytes(allocated)} allocated per request");
            }

            if (m.TryGetValue(RuntimeMeasures.Gen2.Name, out var gen2) && gen2 > 0)
            {
                parts.Add(string.Create(c, $"{gen2:0.#} gen-2 collections a second"));
            }

            causes.Add("the GC: " + string.Join(", ", parts));
        }

        var threads = Series(document, RuntimeMeasures.Threads.Name);
        var cpus = Math.Max(1, CpuPlacement.For(document).Server.Count);
        if (threads.Count > 0 && threads.Max() is var most && most >= cpus + InjectedThreads)
        {
            var queue = Series(document, RuntimeMeasures.QueueLength.Name);
            var waiting = queue.Count > 0 ? string.Create(c, $", with up to {queue.Max():#,0} work items queued") : "";
            var low = threads.Min() < most ? string.Create(c, $", from {threads.Min():0} in its lowest second") : "";
            causes.Add(string.Create(c, $"thread-pool starvation: the pool grew to {most:0} threads on {cpus} CPU{(cpus == 1 ? "" : "s")}{low}{waiting} (requests hold pool threads while they wait: sync over async)"));
        }

        if (m.TryGetValue(RuntimeMeasures.Contentions.Name, out var contentions) && contentions >= ContentionsPerSecond
            && MeasurementCatalog.OwnOf(MeasurementRole.Headline, m) is { } headline && m[headline.Name] is > 0 and var rate && contentions / rate >= ContentionsPerRequest)
        {
            causes.Add(string.Create(c, $"lock contention: {contentions:#,0} contentions a second ({contentions / rate:0.###} per request)"));
        }

        return causes.Count == 0 ? null : string.Join("; ", causes);
    }

    /// <summary>A measurement's per-second values, the warm-up's included: how the pool got where it is is part of the answer.</summary>
    private static List<double> Series(RunDocument document, string name) =>
        [.. document.WarmupSamples.Concat(document.Samples).Where(s => s.Values.ContainsKey(name)).Select(s => s.Values[name])];

    private static string Bytes(double bytes) => bytes switch
    {
        >= 1024 * 1024 => string.Create(CultureInfo.InvariantCulture, $"{bytes / (1024 * 1024):0.#} MB"),
        >= 1024 => string.Create(CultureInfo.InvariantCulture, $"{bytes / 1024:0.#} KB"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bytes:0} B"),
    };
}

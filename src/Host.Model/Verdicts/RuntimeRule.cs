using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// What inside a .NET server's runtime held it back, from its counters and the thread pool's own
/// adjustment events (docs/methodology.md, "Inside the runtime"), judged on the measured window
/// (start-up's thread injection and JIT are not the stack's steady behaviour), each cause with its
/// figures, in this order:
/// the GC, when it paused the server at least <see cref="GcPauseLimit"/>% of the window (from
/// <see cref="GcPauseShare"/>% it is said as a cost, "unclear", not as the limit);
/// thread-pool starvation, when the pool said so: it raised its threads because work waited with
/// none free or pool threads blocked (<see cref="RuntimeMeasures.StarvationAdjustments"/>,
/// <see cref="RuntimeMeasures.BlockingAdjustments"/>) at least <see cref="Adjustments"/> times in
/// the window while holding more threads than its minimum (the processors its runtime saw), or
/// that often over the run while holding at least <see cref="InjectedThreads"/> above its minimum
/// through the window, or above it at all when the pool's reason was blocked threads (the waits go
/// on, on threads enough for them);
/// lock contention, at least <see cref="ContentionsPerSecond"/> contentions a second and
/// <see cref="ContentionsPerRequest"/> per request;
/// exceptions, at least <see cref="ExceptionsPerSecond"/> thrown a second and
/// <see cref="ExceptionsPerRequest"/> per request, said as "unclear" (a cost; one per request did
/// not lower a greeting's rate measurably), while a healthy stack throws none in its window.
/// A run without the pool's events (an older document, a session that could not ask for them)
/// is judged on its thread count alone, and only says "unclear" when that stayed
/// <see cref="InjectedThreads"/> above the minimum through the window.
/// </summary>
internal static class RuntimeRule
{
    public const double GcPauseLimit = 25;

    public const double GcPauseShare = 10;

    public const double Adjustments = 2;

    public const double InjectedThreads = 8;

    public const double ContentionsPerSecond = 100;

    public const double ContentionsPerRequest = 0.01;

    public const double ExceptionsPerSecond = 100;

    public const double ExceptionsPerRequest = 0.05;

    public static List<VerdictCause> Judge(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        var m = document.Measurements;
        var c = CultureInfo.InvariantCulture;
        var causes = new List<VerdictCause>();
        if (m.TryGetValue(RuntimeMeasures.GcPause.Name, out var pause) && pause >= GcPauseShare)
        {
            var parts = new List<string> { string.Create(c, $"paused the server {pause:0.#}% of the window") };
            var evidence = Evidence(m, RuntimeMeasures.GcPause.Name, RuntimeMeasures.AllocatedPerRequest.Name, RuntimeMeasures.Gen2.Name);
            if (m.TryGetValue(RuntimeMeasures.AllocatedPerRequest.Name, out var allocated))
            {
                parts.Add($"{Bytes(allocated)} allocated per request");
            }

            if (m.TryGetValue(RuntimeMeasures.Gen2.Name, out var gen2) && gen2 > 0)
            {
                parts.Add(string.Create(c, $"{gen2:0.#} gen-2 collections a second"));
            }

            // A share below the limit is a cost worth saying, not the limit: stock Kestrel's pipelined plaintext pauses 10-11%.
            causes.Add(pause >= GcPauseLimit
                ? new VerdictCause { Kind = CauseKinds.Gc.Name, Text = "the GC: " + string.Join(", ", parts), Evidence = evidence }
                : new VerdictCause { Kind = CauseKinds.Gc.Name, Text = string.Create(c, $"unclear: the GC {string.Join(", ", parts)} (a cost; " +
                    $"under {GcPauseLimit:0}% it is not named the limit)"), Evidence = evidence, Certainty = VerdictCause.Unclear });
        }

        if (Starvation(document) is { } starvation)
        {
            causes.Add(starvation);
        }

        if (m.TryGetValue(RuntimeMeasures.Contentions.Name, out var contentions) && contentions >= ContentionsPerSecond
            && MeasurementCatalog.OwnOf(MeasurementRole.Headline, m) is { } headline
                && m[headline.Name] is > 0 and var rate
                && contentions / rate >= ContentionsPerRequest)
        {
            var evidence = Evidence(m, RuntimeMeasures.Contentions.Name);
            evidence["contentions-per-request"] = contentions / rate;
            causes.Add(new VerdictCause { Kind = CauseKinds.LockContention.Name, Text = string.Create(c,
                $"lock contention: {contentions:#,0} contentions a second ({contentions / rate:0.###} per request)"), Evidence = evidence });
        }

        if (m.TryGetValue(RuntimeMeasures.Exceptions.Name, out var exceptions) && exceptions >= ExceptionsPerSecond
            && MeasurementCatalog.OwnOf(MeasurementRole.Headline, m) is { } per
                && m[per.Name] is > 0 and var requests
                && exceptions / requests >= ExceptionsPerRequest)
        {
            var evidence = Evidence(m, RuntimeMeasures.Exceptions.Name);
            evidence["exceptions-per-request"] = exceptions / requests;
            // Said as a cost, never as the limit: a throw and catch per request on Kestrel's greeting ran at the rate of the
            // same greeting without it (20-28k against 17-24k req/s, side by side), so the runtime's exceptions are not shown to hold a stack back.
            causes.Add(new VerdictCause
            {
                Kind = CauseKinds.Exceptions.Name,
                Text = string.Create(c,
                    $"unclear: exceptions: {exceptions:#,0} thrown a second ({exceptions / requests:0.##} per request), a cost not shown to be the limit"),
                Advice = "find where with --trace and keep exceptions off the request path",
                Evidence = evidence,
                Certainty = VerdictCause.Unclear,
            });
        }

        return causes;
    }

    /// <summary>The pool's minimum: the processors its runtime saw, else the server's CPUs.</summary>
    public static int Minimum(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        return document.Measurements.TryGetValue(LimitMeasures.Processors.Name, out var processors) && processors >= 1
            ? (int)processors
            : Math.Max(1, CpuPlacement.For(document).Server.Count);
    }

    private static VerdictCause? Starvation(RunDocument document)
    {
        var threads = Window(document, RuntimeMeasures.Threads.Name);
        if (threads.Count == 0)
        {
            return null;
        }

        var c = CultureInfo.InvariantCulture;
        var minimum = Minimum(document);
        var held = Benchmarks.Load.Statistics.Trend.Level(threads);
        var queue = Window(document, RuntimeMeasures.QueueLength.Name);
        var evidence = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            ["threadpool/minimum"] = minimum,
            ["threadpool/threads/median"] = held,
            ["threadpool/threads/max"] = threads.Max(),
        };
        if (queue.Count > 0)
        {
            evidence["threadpool/queue/median"] = Benchmarks.Load.Statistics.Trend.Level(queue);
        }

        var cpus = string.Create(c, $"its minimum of {minimum} (the processors its runtime saw)");
        var starved = Window(document, RuntimeMeasures.StarvationAdjustments.Name);
        if (starved.Count > 0)
        {
            var blocked = Window(document, RuntimeMeasures.BlockingAdjustments.Name).Sum();
            var inWindow = starved.Sum() + blocked;
            var warmStarved = Warmup(document, RuntimeMeasures.StarvationAdjustments.Name);
            var warmBlocked = Warmup(document, RuntimeMeasures.BlockingAdjustments.Name);
            var inRun = inWindow + warmStarved + warmBlocked;
            evidence[RuntimeMeasures.StarvationAdjustments.Name] = starved.Sum();
            evidence[RuntimeMeasures.BlockingAdjustments.Name] = blocked;
            evidence["threadpool/warmup/starvation-adjustments"] = warmStarved;
            evidence["threadpool/warmup/blocking-adjustments"] = warmBlocked;
            var why = blocked + warmBlocked > inRun / 2
                ? "pool threads blocked in waits (sync over async: Task.Wait, .Result)"
                : "work waited with no thread free (requests hold pool threads while they wait: sync over async)";

            // Starving now: the pool keeps raising its threads in the window.
            if (inWindow >= Adjustments && held > minimum)
            {
                return new VerdictCause
                {
                    Kind = CauseKinds.ThreadPoolStarvation.Name,
                    Text = string.Create(c,
                        $"thread-pool starvation: in the window the pool raised its threads {inWindow:#,0} time{(inWindow == 1 ? "" : "s")} because {why}, " +
                        $"holding a median of {held:0} against {cpus}"),
                    Evidence = evidence,
                };
            }

            // Starved before the window and still held there: the waits that raised the pool go on, on threads enough for them.
            // Only a synchronous wait on a pool thread raises the pool for blocking, so those adjustments need no margin
            // above the minimum (8 connections each waiting held 8-10 threads against 2); start-up's starvation does.
            if (inRun >= Adjustments && (held >= minimum + InjectedThreads || (blocked + warmBlocked >= Adjustments && held > minimum)))
            {
                return new VerdictCause
                {
                    Kind = CauseKinds.ThreadPoolStarvation.Name,
                    Text = string.Create(c,
                        $"thread-pool starvation: the pool raised its threads {inRun:#,0} times because {why}, " +
                        $"and held a median of {held:0} through the window against {cpus}"),
                    Evidence = evidence,
                };
            }

            return null;
        }

        // No adjustment events: the thread count alone cannot tell starvation from hill climbing, so a pool held far above its minimum is only a suspicion.
        if (held < minimum + InjectedThreads)
        {
            return null;
        }

        return new VerdictCause
        {
            Kind = CauseKinds.ThreadPoolStarvation.Name,
            Text = string.Create(c,
                $"unclear: thread-pool starvation? the pool held a median of {held:0} threads in the window against {cpus}; " +
                $"the run has no record of why it added them"),
            Evidence = evidence,
            Certainty = VerdictCause.Unclear,
        };
    }

    /// <summary>A measurement's per-second values summed over the warm-up.</summary>
    private static double Warmup(RunDocument document, string name) =>
        document.WarmupSamples.Where(s => s.Values.ContainsKey(name)).Sum(s => s.Values[name]);

    /// <summary>A measurement's per-second values over the measured window.</summary>
    private static List<double> Window(RunDocument document, string name) =>
        [.. document.Samples.Where(s => s.Values.ContainsKey(name)).Select(s => s.Values[name])];

    /// <summary>The figures a cause rests on: those of <paramref name="names"/> the run has. BottleneckRule uses it too.</summary>
    public static SortedDictionary<string, double> Evidence(SortedDictionary<string, double> m, params string[] names)
    {
        var evidence = new SortedDictionary<string, double>(StringComparer.Ordinal);
        foreach (var name in names)
        {
            if (m.TryGetValue(name, out var value))
            {
                evidence[name] = value;
            }
        }

        return evidence;
    }

    private static string Bytes(double bytes) => bytes switch
    {
        >= 1024 * 1024 => string.Create(CultureInfo.InvariantCulture, $"{bytes / (1024 * 1024):0.#} MB"),
        >= 1024 => string.Create(CultureInfo.InvariantCulture, $"{bytes / 1024:0.#} KB"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{bytes:0} B"),
    };
}

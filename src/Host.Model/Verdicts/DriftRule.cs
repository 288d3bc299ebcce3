using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// What moved the rate of a window that drifted, or fell below the level its warm-up held, while
/// the server's JIT was quiet: the faster seconds (the window's first or last third, whichever
/// served more; or the warm-up's best stretch) against the slower ones, on the figures the run
/// sampled each second. In order: the server's CPUs taken by another process (the server's own
/// use fell, its CPUs stayed busy), the load's CPUs full (the server's use fell, the load's CPUs
/// had no idle), then, with the server's CPUs busy on both sides (at least
/// <see cref="BottleneckRule.CpuLimit"/>%), so that each request cost more of them: the hypervisor
/// (steal up by <see cref="BottleneckRule.StealLimit"/> points), the GC (its pauses up by
/// <see cref="GcPausePoints"/> points), other processes on the machine (their share up by
/// <see cref="BottleneckRule.OtherWorkShare"/> points), and else the machine's own speed: the same
/// requests, the same runtime figures (GC, threads, lock contention), more CPU each. Null when the
/// two sides served within <see cref="MovedPercent"/>% of each other; unclear when the server's
/// CPU use fell with nothing full, or its runtime moved in a way the rule does not weigh.
/// </summary>
internal static class DriftRule
{
    /// <summary>The slower seconds' rate must be at least this far below the faster's (%) for the rule to say why.</summary>
    public const double MovedPercent = 8;

    /// <summary>The rise in the GC's share of the server's time (points) that makes the GC the drift's cause.</summary>
    public const double GcPausePoints = 5;

    /// <summary>The fall in the server's own CPU use (points of its CPUs) that says it was no longer what limited the rate.</summary>
    public const double ServerFellPoints = 10;

    /// <summary>
    /// The rate's drift inside the window: its first third against its last, the one that served more
    /// being the faster; null when the window has under <see cref="SteadinessRule.MinimumSeconds"/> seconds.
    /// </summary>
    public static VerdictCause? InWindow(RunDocument document, IReadOnlyList<RunSample> window, bool compiling = false)
    {
        ArgumentNullException.ThrowIfNull(window);
        if (window.Count < SteadinessRule.MinimumSeconds)
        {
            return null;
        }

        var third = window.Count / 3;
        var (first, last) = (window.Take(third).ToList(), window.Skip(window.Count - third).ToList());
        var (firstName, lastName) = (Invariant($"the window's first {third} s"), Invariant($"the window's last {third} s"));
        return Rate(first) >= Rate(last) ? Explain(document, first, last, firstName, lastName, compiling) :
            Explain(document, last, first, lastName, firstName, compiling);
    }

    /// <summary>
    /// The fall from the warm-up: its best <see cref="Benchmarks.Load.DefaultLoad.SteadySeconds"/>
    /// consecutive seconds (by median rate) against the window.
    /// </summary>
    public static VerdictCause? FromWarmup(RunDocument document, IReadOnlyList<RunSample> warmup, IReadOnlyList<RunSample> window, bool compiling = false)
    {
        ArgumentNullException.ThrowIfNull(warmup);
        var n = Benchmarks.Load.DefaultLoad.SteadySeconds;
        if (warmup.Count < n || window.Count == 0)
        {
            return null;
        }

        var best = Enumerable.Range(0, warmup.Count - n + 1)
            .MaxBy(i => Benchmarks.Load.Statistics.Trend.Level([.. warmup.Skip(i).Take(n).Select(s => s.Values[SystemMeasures.LoadRate.Name])]));
        return Explain(document, [.. warmup.Skip(best).Take(n)], window, Invariant($"the warm-up's best {n} s"), "the window", compiling);
    }

    /// <summary>
    /// Why <paramref name="slower"/> served less than <paramref name="faster"/>; null when they served within
    /// <see cref="MovedPercent"/>%, or when the server's JIT was <paramref name="compiling"/> and the only change
    /// found is what a request cost the server (a tier-up changes that: the warm-up's, not the machine's).
    /// </summary>
    public static VerdictCause? Explain(RunDocument document, IReadOnlyList<RunSample> faster, IReadOnlyList<RunSample> slower, string fasterName,
        string slowerName, bool compiling = false)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(faster);
        ArgumentNullException.ThrowIfNull(slower);
        var (fast, slow) = (Rate(faster), Rate(slower));
        if (fast <= 0 || slow <= 0 || (1 - slow / fast) * 100 < MovedPercent || !Has(faster, SystemMeasures.CpuUser) || !Has(slower, SystemMeasures.CpuUser))
        {
            return null;
        }

        var placement = CpuPlacement.For(document);
        var a = new DriftSide(placement, faster);
        var b = new DriftSide(placement, slower);
        var evidence = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            ["drift/rate/faster"] = fast,
            ["drift/rate/slower"] = slow,
            ["drift/server-busy/faster"] = a.ServerBusy,
            ["drift/server-busy/slower"] = b.ServerBusy,
        };
        var fell = (1 - slow / fast) * 100;
        var sides = Invariant($"{slowerName} served {fell:0}% less than {fasterName} ({slow:#,0}/s against {fast:#,0}/s)");
        VerdictCause Cause(CauseKind kind, string text, string certainty = VerdictCause.Sure) =>
            new() { Kind = kind.Name, Text = sides + ": " + text, Evidence = evidence, Certainty = certainty };

        // The server used less of its CPUs on the slower side: something else held the rate.
        if (b.ServerBusy < BottleneckRule.CpuLimit && a.ServerBusy - b.ServerBusy >= ServerFellPoints)
        {
            var serverUse = Invariant($"the server's use of its CPUs fell from {a.ServerBusy:0}% to {b.ServerBusy:0}%");
            if (b.ServerCpusIdle is { } idle && idle < BottleneckRule.IdleLimit)
            {
                evidence["drift/server-cpus-idle/slower"] = idle;
                return Cause(CauseKinds.MachineBusy,
                    Invariant($"another process took the server's CPUs ({serverUse}, while they stayed {100 - idle:0}% busy)"));
            }

            if (b.LoadCpusIdle is { } loadIdle && loadIdle < BottleneckRule.IdleLimit)
            {
                evidence["drift/load-cpus-idle/slower"] = loadIdle;
                evidence["drift/load-busy/slower"] = b.LoadBusy;
                return Cause(CauseKinds.Load, Invariant(
                    $"the load's CPUs were full ({100 - loadIdle:0}% busy, {b.LoadBusy:0}% of them the load's own; {serverUse})"));
            }

            return Cause(CauseKinds.DriftUnexplained, Invariant($"unclear: {serverUse} with no CPU full on either side"), VerdictCause.Unclear);
        }

        if (a.ServerBusy < BottleneckRule.CpuLimit || b.ServerBusy < BottleneckRule.CpuLimit)
        {
            return Cause(CauseKinds.DriftUnexplained, Invariant($"unclear: the server's CPUs were {a.ServerBusy:0}% and {b.ServerBusy:0}% busy") +
                ", so neither a request's cost in CPU nor another part is shown to have moved it", VerdictCause.Unclear);
        }

        // Busy on both sides: each request took more of the server's CPU. What took it?
        var cost = (b.ServerShare / slow) / (a.ServerShare / fast) - 1;
        var user = a.User > 0 ? (b.User / slow) / (a.User / fast) - 1 : 0;
        var kernel = a.Kernel > 0 ? (b.Kernel / slow) / (a.Kernel / fast) - 1 : 0;
        evidence["drift/cpu-per-request"] = cost * 100;
        evidence["drift/cpu-per-request/user"] = user * 100;
        evidence["drift/cpu-per-request/kernel"] = kernel * 100;
        var perRequest = Invariant($"each request cost the server {cost * 100:0}% more CPU (user mode {user * 100:+0;-0}%, kernel {kernel * 100:+0;-0}%)");
        if (b.Steal - a.Steal >= BottleneckRule.StealLimit)
        {
            evidence["drift/steal/faster"] = a.Steal;
            evidence["drift/steal/slower"] = b.Steal;
            return Cause(CauseKinds.Noisy, Invariant($"the hypervisor took {b.Steal:0.#}% of the machine against {a.Steal:0.#}% ({perRequest})"));
        }

        if (a.GcPause is { } gcFast && b.GcPause is { } gcSlow && gcSlow - gcFast >= GcPausePoints)
        {
            evidence["drift/gc-pause/faster"] = gcFast;
            evidence["drift/gc-pause/slower"] = gcSlow;
            return Cause(CauseKinds.GcGrowth, Invariant($"the GC paused the server {gcSlow:0.#}% of the time against {gcFast:0.#}% ({perRequest})"));
        }

        if (b.OtherWork - a.OtherWork >= BottleneckRule.OtherWorkShare)
        {
            evidence["drift/other-work/faster"] = a.OtherWork;
            evidence["drift/other-work/slower"] = b.OtherWork;
            return Cause(CauseKinds.MachineBusy, Invariant(
                $"other processes took {b.OtherWork:0}% of the machine against {a.OtherWork:0}%, and {perRequest} on its busy CPUs"));
        }

        // The runtime's own figures, where the server reported them: unchanged, the code ran slower; changed, the rule does not say how.
        if (compiling)
        {
            return null;
        }

        if (a.GcPause is null || b.GcPause is null)
        {
            return Cause(CauseKinds.MachineSpeed, perRequest + " on CPUs busy throughout; the server reported no runtime figures to rule its own " +
                "state out, so the machine's speed is a guess", VerdictCause.Unclear);
        }

        var runtime = Invariant($"its GC ({a.GcPause:0.#}%, {b.GcPause:0.#}% of the time), thread-pool threads ({a.Threads:0}, {b.Threads:0})") +
            Invariant($" and lock contentions ({a.Contentions:0}/s, {b.Contentions:0}/s)");
        var threadsMoved = Math.Abs(b.Threads - a.Threads) > Math.Max(2, 0.5 * a.Threads);
        var contentionMoved = b.Contentions - a.Contentions >= RuntimeRule.ContentionsPerSecond;
        if (threadsMoved || contentionMoved)
        {
            return Cause(CauseKinds.DriftUnexplained, Invariant($"unclear: {perRequest}, and the runtime moved with it: {runtime}"), VerdictCause.Unclear);
        }

        return Cause(CauseKinds.MachineSpeed, perRequest + " on CPUs busy throughout, with " + runtime +
            " unchanged: the same work took more CPU, so the machine ran it slower (another tenant on the host, its clock); nothing the run reads in the " +
            "stack moved");
    }

    private static double Rate(IReadOnlyList<RunSample> seconds) =>
        seconds.Count == 0 ? 0 : Benchmarks.Load.Statistics.Trend.Level([.. seconds.Select(s => s.Values.GetValueOrDefault(SystemMeasures.LoadRate.Name))]);

    private static bool Has(IReadOnlyList<RunSample> seconds, Measurement measurement) => seconds.Any(s => s.Values.ContainsKey(measurement.Name));

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}

using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// When a server's busy CPU is not proof that it was the limit (docs/methodology.md, "A spinning
/// thread pool"). Below saturation .NET's thread-pool workers spin, and yield in kernel mode,
/// before they sleep, and that time is charged to the server as CPU: Kestrel's plaintext at a
/// fixed 10,000 req/s reads 90% of its CPU busy, 76% with spinning turned off. Two runs prove the
/// CPU figure overstates the work, and are said as "unclear" rather than as the stack or the kernel:
/// an open model that met its rate (within the shortfall the rate rule allows) with at most <see cref="QueuedShare"/> of its requests held back
/// by the server (a saturated server queues them), and a closed loop with one request in flight,
/// where server and load take turns, yet their CPUs added up to more than
/// <see cref="OneExchangeCpus"/> of a CPU (one exchange at a time cannot keep more busy).
/// </summary>
internal static class SpinningRule
{
    /// <summary>
    /// The share of an open model's requests the server may have held back (sent late for want of a
    /// connection) and still be judged not queueing.
    /// </summary>
    public const double QueuedShare = 0.01;

    /// <summary>
    /// The CPUs one exchange at a time can keep busy, with the kernel's share of a loopback
    /// delivery counted on both sides: Kestrel's plaintext over one connection with spinning off
    /// read 0.80 (server) + 0.23 (load) = 1.03; with it on, 0.99 + 0.32 = 1.31.
    /// </summary>
    public const double OneExchangeCpus = 1.15;

    /// <summary>Why the server's busy CPUs do not show it at its limit, or null when nothing says so.</summary>
    public static VerdictCause? Judge(RunDocument document, CpuPlacement placement, double serverBusy)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(placement);
        var m = document.Measurements;
        var c = CultureInfo.InvariantCulture;
        var pool = m.ContainsKey(RuntimeMeasures.Threads.Name)
            ? ".NET's thread-pool workers spin (and yield, in kernel mode) while they wait for work, and that is charged as CPU"
            : "the server's threads may spin while they wait for work, and that is charged as CPU";
        const string Apart = "DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0 on the server shows the work alone";
        var evidence = RuntimeRule.Evidence(m, SystemMeasures.CpuMean.Name, SystemMeasures.CpuUser.Name, SystemMeasures.CpuKernel.Name,
            RuntimeMeasures.Threads.Name);
        evidence["server/busy"] = serverBusy;

        var names = OpenModelMeasures.Of(m);
        if (m.TryGetValue(names.RateRequested.Name, out var requested))
        {
            var sent = m.GetValueOrDefault(names.Completed);
            var queued = Math.Max(0, m.GetValueOrDefault(names.Late.Name) - m.GetValueOrDefault(names.LateByLoad.Name));
            var met = m.TryGetValue(names.Achieved, out var achieved) && achieved >= requested * (1 - Benchmarks.Load.DefaultLoad.ShortfallLimit);
            if (!met || sent <= 0 || queued > QueuedShare * sent)
            {
                return null;
            }

            evidence[names.Late.Name] = m.GetValueOrDefault(names.Late.Name);
            evidence[names.LateByLoad.Name] = m.GetValueOrDefault(names.LateByLoad.Name);
            return Unclear(
                string.Create(c,
                    $"the server met the requested {requested:n0} {names.Unit} without queueing ({queued:n0} of {sent:n0} held back for a connection) " +
                    $"while its {BottleneckRule.Count(placement.Server.Count)} read {serverBusy:0}% busy: it may be near its limit, or {pool}"),
                $"a higher --rate or --find-max finds its limit; {Apart}",
                evidence);
        }

        if (placement.Shared || BottleneckRule.InFlight(document) != 1)
        {
            return null;
        }

        var serverCpus = serverBusy / 100 * placement.Server.Count;
        var loadCpus = placement.LoadBusy(m) / 100 * placement.Load.Count;
        if (serverCpus + loadCpus <= OneExchangeCpus)
        {
            return null;
        }

        evidence["load/busy"] = placement.LoadBusy(m);
        return Unclear(
            string.Create(c,
                $"one request was in flight at a time, so server and load took turns, yet their CPUs read {serverCpus:0.00} and {loadCpus:0.00} of a CPU, " +
                $"more than one exchange at a time keeps busy: {pool}, so the server's {serverBusy:0}% is not its limit"),
            $"{BottleneckRule.ConcurrencyAdvice}; {Apart}",
            evidence);
    }

    /// <summary>Nothing shown saturated, said as unclear: the server's busy CPU is not proof of its limit.</summary>
    private static VerdictCause Unclear(string text, string advice, SortedDictionary<string, double> evidence) => new()
    {
        Kind = CauseKinds.NothingSaturated.Name,
        Certainty = VerdictCause.Unclear,
        Text = "unclear: " + text,
        Advice = advice,
        Evidence = evidence,
    };
}

using System.Globalization;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// The <c>bound:</c> verdict of a server job an agent ran for crank, from the job's own per-second
/// samples: the seconds it was loaded (<see cref="LoadedSpan"/>) become a window, judged by the same
/// rules as a local run (<see cref="RunVerdicts.Causes"/>). A load the same agent ran for the same
/// run (crank's <c>local</c> profile) adds its CPU over those seconds, as a local run's does; a load
/// on another machine is none of this machine's CPUs. What only the load knows (its rate, its
/// latency) is not there, so the causes are the server box's: its CPUs, its quota and memory, its
/// link, the runtime's counters under their catalog names.
/// </summary>
internal static class JobVerdict
{
    /// <summary>The result holding the verdict's line, as crank shows and stores it.</summary>
    public const string Bound = "bound";

    /// <summary>The result holding the causes' kinds (<see cref="CauseKinds"/>), comma-separated: the shortest row of crank's table.</summary>
    public const string Kinds = "bound/kinds";

    /// <summary>
    /// The result holding the causes as a run document stores them (kind, clause, advice, evidence,
    /// certainty): crank keeps it in its <c>--json</c> and leaves it out of its table.
    /// </summary>
    public const string Causes = "bound/causes";

    /// <summary>
    /// The result holding the line's first clause without its figures
    /// (<see cref="Crank.CrankText.Brief"/>): the table's row, short enough not to widen it.
    /// </summary>
    public const string Brief = "bound/brief";

    /// <summary>The row labels in crank's tables.</summary>
    public const string BriefLabel = "Bound (this box's verdict)";

    public const string KindsLabel = "Bound by";

    /// <summary>
    /// Judges the job from <paramref name="samples"/>, one per interval in order. <paramref name="cpus"/>
    /// are the CPUs the job ran on (its cpuSet, or the agent's own when it was confined to some),
    /// null for all; when <paramref name="confined"/>, the agent's box is those CPUs of a larger
    /// machine (a rehearsal lab on one machine) and the whole machine's idle is not the box's.
    /// <paramref name="loads"/> are the loads that ran on this machine for the same run: their CPU
    /// in the span is added up, on the CPUs they ran on together.
    /// </summary>
    /// <param name="job">The job's name in its run (crank's <c>application</c>, <c>db</c>): the line says whose box it judged.</param>
    public static JobVerdictResult? Judge(IReadOnlyList<JobSample> samples, IReadOnlyList<int>? cpus, int cores, bool confined,
        IReadOnlyList<LoadSamples>? loads = null, string job = "application")
    {
        ArgumentNullException.ThrowIfNull(samples);
        var cpu = samples.Select(s => s.Values.GetValueOrDefault(SystemMeasures.CpuMean.Name)).ToList();
        var packets = samples.Select(s => s.Values.GetValueOrDefault(SystemMeasures.NetRxPackets.Name)
            + s.Values.GetValueOrDefault(SystemMeasures.NetTxPackets.Name)).ToList();
        if (LoadedSpan.Find(cpu, packets) is not { } span)
        {
            return null;
        }

        var window = samples.Skip(span.Start).Take(span.Seconds).Select(s => s.Values).ToList();
        var document = new RunDocument { Environment = { Cores = cores } };
        if (cpus is { Count: > 0 })
        {
            document.Parameters["server-cpus"] = CpuSet.Format(cpus);
        }

        // Each load's seconds that ended inside the span (from the end of the second before it).
        var from = span.Start > 0 ? samples[span.Start - 1].At : samples[span.Start].At.AddSeconds(-1);
        var beside = (loads ?? [])
            .Select(l => (l.Cpus,
                Seconds: l.Samples.Where(s => s.At > from && s.At <= samples[span.End].At && s.Values.ContainsKey(SystemMeasures.CpuUser.Name)).ToList()))
            .Where(l => l.Seconds.Count > 0)
            .ToList();
        if (beside.Count > 0)
        {
            document.Parameters["load-cpus"] = beside.Any(l => l.Cpus is not { Count: > 0 })
                ? "any"
                : CpuSet.Format([.. beside.SelectMany(l => l.Cpus!).Distinct().Order()]);
            document.Measurements[SystemMeasures.LoadUser.Name] = beside.Sum(l => l.Seconds.Average(s => s.Values[SystemMeasures.CpuUser.Name]));
            document.Measurements[SystemMeasures.LoadKernel.Name] =
                beside.Sum(l => l.Seconds.Average(s => s.Values.GetValueOrDefault(SystemMeasures.CpuKernel.Name)));
        }
        else
        {
            document.Parameters["load-cpus"] = CpuPlacement.Elsewhere;
        }

        foreach (var name in window.SelectMany(s => s.Keys).Distinct(StringComparer.Ordinal))
        {
            var values = window.Where(s => s.ContainsKey(name)).Select(s => s[name]).ToList();
            document.Measurements[name] = MeasurementCatalog.Find(name) is { } measurement ? measurement.Aggregate.Apply(values) : values.Average();
        }

        // A sampled total (a count or bytes, its last value: the job's since its start) counts over the span: the last second's less the one before it.
        var before = span.Start > 0 ? samples[span.Start - 1].Values : null;
        foreach (var name in document.Measurements.Keys.ToList())
        {
            if (MeasurementCatalog.Find(name) is { Sampled: true, Aggregate: Operation.Last, Unit: "count" or "bytes" })
            {
                document.Measurements[name] -= before?.GetValueOrDefault(name) ?? 0;
            }
        }

        // The drops' share is not a total: it is the span's drops of the packets the span moved.
        if (document.Measurements.TryGetValue(SystemMeasures.NetDrops.Name, out var drops))
        {
            var carried = window.Sum(s => s.GetValueOrDefault(SystemMeasures.NetRxPackets.Name) + s.GetValueOrDefault(SystemMeasures.NetTxPackets.Name));
            document.Measurements[SystemMeasures.NetDropShare.Name] = drops > 0 ? drops / (carried + drops) * 100 : 0;
        }

        if (confined)
        {
            document.Measurements.Remove(SystemMeasures.MachineIdle.Name);
        }

        foreach (var second in window)
        {
            document.Samples.Add(new RunSample { Time = document.Samples.Count, Values = new SortedDictionary<string, double>(second.ToDictionary(),
                StringComparer.Ordinal) });
        }

        var causes = RunVerdicts.Causes(document);
        if (causes.Count == 0)
        {
            return null;
        }

        var line = VerdictLine.Render(causes)
            + string.Create(CultureInfo.InvariantCulture,
                $" ({job}'s box, the {span.Seconds} s it was loaded, seconds {span.Start + 1}–{span.End + 1} of the job; " +
                $"{(beside.Count > 0 ? "the load ran on this machine too" : "the load ran elsewhere")})");
        return new JobVerdictResult(line, causes, span);
    }
}

using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// Where a run's processes ran (its <c>server-cpus</c>, <c>load-cpus</c>, <c>db-cpus</c> and
/// <c>proxy-cpus</c> parameters, every CPU when unset) and how busy a process's CPU share makes its
/// own CPUs: the one computation the rules that judge a run share. Busy is of the time the CPUs were
/// the guest's: what the hypervisor took (<c>machine/cpu/steal</c>, a share of the wall time) no
/// process could have used, so a server pinned to a CPU with 30% stolen is saturated at 70% of the
/// wall time, not "nothing saturated".
/// </summary>
internal sealed class CpuPlacement
{
    private CpuPlacement(RunDocument document)
    {
        Cores = Math.Max(1, document.Environment.Cores);
        Server = Of(document, "server-cpus");
        Load = Of(document, "load-cpus");
        Steal = Math.Clamp(document.Measurements.GetValueOrDefault(SystemMeasures.MachineSteal.Name), 0, MaxSteal);
    }

    /// <summary>
    /// The steal beyond which the CPUs' own share is taken as this much: a guest left a twentieth
    /// of its time has no busy figure worth judging.
    /// </summary>
    private const double MaxSteal = 95;

    /// <summary>The value of <c>load-cpus</c> for a load that ran on another machine (a server box judged by its agent): none of this machine's CPUs.</summary>
    public const string Elsewhere = "elsewhere";

    public int Cores { get; }

    public IReadOnlyList<int> Server { get; }

    public IReadOnlyList<int> Load { get; }

    /// <summary>The share of the wall time the hypervisor took, in % (0 where the OS does not report it).</summary>
    public double Steal { get; }

    /// <summary>The load ran on another machine (<see cref="Elsewhere"/>).</summary>
    public bool LoadElsewhere => Load.Count == 0;

    /// <summary>The server and the load ran on at least one CPU in common.</summary>
    public bool Shared => Server.Intersect(Load).Any();

    public static CpuPlacement For(RunDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        return new CpuPlacement(document);
    }

    /// <summary>The CPUs a placement parameter names (<c>db-cpus</c>, …), every CPU when unset or unreadable.</summary>
    public IReadOnlyList<int> Of(RunDocument document, string parameter)
    {
        ArgumentNullException.ThrowIfNull(document);
        return Parse(document.Parameters.GetValueOrDefault(parameter), Cores);
    }

    /// <summary>
    /// How busy <paramref name="cpus"/> were, in % of the time they were the guest's, from a
    /// process's share of the whole machine's wall time (in %).
    /// </summary>
    public double Busy(double machinePercent, IReadOnlyList<int> cpus)
    {
        ArgumentNullException.ThrowIfNull(cpus);
        if (cpus.Count == 0)
        {
            return 0;
        }

        var ofWallTime = machinePercent / (cpus.Count * 100.0 / Cores) * 100;
        // The steal is the machine's mean, not these CPUs' own: the correction never makes them busier than full.
        return Steal > 0 ? Math.Max(ofWallTime, Math.Min(100, ofWallTime / (1 - Steal / 100))) : ofWallTime;
    }

    /// <summary>How busy the load's CPUs were, in %, from its user and kernel shares in <paramref name="values"/>.</summary>
    public double LoadBusy(IReadOnlyDictionary<string, double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return Busy(values.GetValueOrDefault(SystemMeasures.LoadUser.Name) + values.GetValueOrDefault(SystemMeasures.LoadKernel.Name), Load);
    }

    private static IReadOnlyList<int> Parse(string? text, int cores)
    {
        if (text == Elsewhere)
        {
            return [];
        }

        if (text is null or "any")
        {
            return [.. Enumerable.Range(0, cores)];
        }

        try
        {
            return CpuSet.Parse(text, cores);
        }
        catch (FormatException)
        {
            return [.. Enumerable.Range(0, cores)];
        }
    }
}

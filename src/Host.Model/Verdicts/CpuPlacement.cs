using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// Where a run's processes ran (its <c>server-cpus</c>, <c>load-cpus</c>, <c>db-cpus</c> and
/// <c>proxy-cpus</c> parameters, every CPU when unset) and how busy a process's CPU share makes its
/// own CPUs: the one computation the rules that judge a run share.
/// </summary>
internal sealed class CpuPlacement
{
    private CpuPlacement(RunDocument document)
    {
        Cores = Math.Max(1, document.Environment.Cores);
        Server = Of(document, "server-cpus");
        Load = Of(document, "load-cpus");
    }

    public int Cores { get; }

    public IReadOnlyList<int> Server { get; }

    public IReadOnlyList<int> Load { get; }

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

    /// <summary>How busy <paramref name="cpus"/> were, in %, from a process's share of the whole machine (in %).</summary>
    public double Busy(double machinePercent, IReadOnlyList<int> cpus) => machinePercent / (cpus.Count * 100.0 / Cores) * 100;

    /// <summary>How busy the load's CPUs were, in %, from its user and kernel shares in <paramref name="values"/>.</summary>
    public double LoadBusy(IReadOnlyDictionary<string, double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return Busy(values.GetValueOrDefault(SystemMeasures.LoadUser.Name) + values.GetValueOrDefault(SystemMeasures.LoadKernel.Name), Load);
    }

    private static IReadOnlyList<int> Parse(string? text, int cores)
    {
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

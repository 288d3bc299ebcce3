using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// How the agent describes its machine, the same in <c>/info</c> (<c>hw</c>, <c>env</c>) and in
/// every job it echoes (<c>hardware</c>, <c>hardwareVersion</c>), as crank's agent does; and in
/// <c>/info</c>, which crank stores as each job's <c>environment</c>, the box itself: its name and
/// address, the CPUs it has of the machine's, and the interface its address is on with that link's
/// capacity and its source (<see cref="Box"/>), so that an imported run names every box it ran on.
/// </summary>
internal sealed record AgentMachine(string Hardware, string HardwareVersion)
{
    /// <summary>The box: <c>machineName</c>, <c>address</c>, <c>cpus</c>, <c>machineCpus</c>, <c>network</c> (as a run document writes it).</summary>
    public AgentBox? Box { get; init; }

    /// <summary>crank's <c>Hardware</c> enum names; a controller cannot read any other.</summary>
    public static readonly IReadOnlyList<string> HardwareKinds = ["Unknown", "Cloud", "Physical", "ARM64", "AMD64"];

    public static AgentMachine From(AgentOptions options, ISystemMetrics metrics)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(metrics);
        var cpus = Platform.MachineCpus.Confined() ?? [.. Enumerable.Range(0, Platform.MachineCpus.Count)];
        var nic = NetworkInterfaceLocator.ForEndpoints([options.Url]);
        return new AgentMachine(options.Hardware, options.HardwareVersion ?? Describe(metrics.ReadProcessorModel(), Environment.ProcessorCount))
        {
            Box = new AgentBox(
                Environment.MachineName,
                options.Url.Authority,
                Platform.CpuSet.Format(cpus),
                Platform.MachineCpus.Count,
                nic is null ? null : NetworkInterfaceLocator.Describe(nic, options.LinkCapacity ?? metrics.ReadLinkCapacity(nic))),
        };
    }

    /// <summary>"AMD EPYC 7763 64-Core Processor, 2 cores", or "2 cores" when the model is unknown.</summary>
    public static string Describe(string? processorModel, int cores) =>
        string.IsNullOrWhiteSpace(processorModel) ? $"{cores} cores" : $"{processorModel.Trim()}, {cores} cores";
}

using Benchmarks.Host.Agent.Core;
using Benchmarks.Host.Agent.Hosting;
using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// How the agent describes its machine, the same in <c>/info</c> (<c>hw</c>, <c>env</c>) and in
/// every job it echoes (<c>hardware</c>, <c>hardwareVersion</c>), as crank's agent does.
/// </summary>
internal sealed record AgentMachine(string Hardware, string HardwareVersion)
{
    /// <summary>crank's <c>Hardware</c> enum names; a controller cannot read any other.</summary>
    public static readonly IReadOnlyList<string> HardwareKinds = ["Unknown", "Cloud", "Physical", "ARM64", "AMD64"];

    public static AgentMachine From(AgentOptions options, ISystemMetrics metrics)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(metrics);
        return new AgentMachine(options.Hardware, options.HardwareVersion ?? Describe(metrics.ReadProcessorModel(), Environment.ProcessorCount));
    }

    /// <summary>"AMD EPYC 7763 64-Core Processor, 2 cores", or "2 cores" when the model is unknown.</summary>
    public static string Describe(string? processorModel, int cores) =>
        string.IsNullOrWhiteSpace(processorModel) ? $"{cores} cores" : $"{processorModel.Trim()}, {cores} cores";
}

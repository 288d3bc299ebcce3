using System.Text.Json.Nodes;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>
/// The box an agent runs on, as <c>/info</c> says it: the machine's name, the agent's address, the
/// CPUs it and its jobs may use (all of the machine's, or a lab box's share) and the interface its
/// address is on.
/// </summary>
internal sealed record AgentBox(string MachineName, string Address, string Cpus, int MachineCpus, RunNetwork? Network)
{
    /// <summary>The fields added to <c>/info</c>, under the names <c>results import</c> reads back.</summary>
    public void AddTo(JsonObject info)
    {
        ArgumentNullException.ThrowIfNull(info);
        info["machineName"] = MachineName;
        info["address"] = Address;
        info["cpus"] = Cpus;
        info["machineCpus"] = MachineCpus;
        if (Network is { } network)
        {
            // As a run document writes its network: the import reads it back with the same names.
            info["network"] = RunDocumentJson.SerializeNetwork(network);
        }
    }
}

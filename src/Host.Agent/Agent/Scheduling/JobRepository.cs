using System.Collections.Concurrent;
using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Protocol;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>The agent's jobs by id, made on the agent's clock. Deleted jobs stay queryable until they are pruned.</summary>
internal sealed class JobRepository(string root, AgentMachine machine, TimeProvider? time = null)
{
    private readonly ConcurrentDictionary<int, AgentJob> _jobs = new();
    private int _lastId;

    public string Root { get; } = root;

    public AgentJob Add(JsonObject document)
    {
        var id = Interlocked.Increment(ref _lastId);
        var job = new AgentJob(id, document, Path.Combine(Root, id.ToString(System.Globalization.CultureInfo.InvariantCulture)), machine, time);
        _jobs[id] = job;
        return job;
    }

    public AgentJob? Find(int id) => _jobs.TryGetValue(id, out var job) ? job : null;

    public IReadOnlyList<AgentJob> All() => [.. _jobs.Values.OrderBy(j => j.Id)];

    /// <summary>The jobs a controller can still act on (New, Initializing, Waiting, Starting, Running), as crank's agent lists them.</summary>
    public IReadOnlyList<AgentJob> Active() =>
        [.. All().Where(j => j.State is AgentJobState.New or AgentJobState.Initializing or AgentJobState.Waiting or AgentJobState.Starting
            or AgentJobState.Running)];

    public void Remove(int id) => _jobs.TryRemove(id, out _);
}

using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Protocol;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>Reads a job's sources: the <c>sources</c> dictionary, or the obsolete single <c>source</c> (which goes to the root).</summary>
internal static class AgentJobSources
{
    public static IReadOnlyList<AgentJobSource> Read(AgentJob job)
    {
        ArgumentNullException.ThrowIfNull(job);
        var sources = new List<AgentJobSource>();
        if (job.Get("sources") is JsonObject map && map.Count > 0)
        {
            foreach (var (name, value) in map)
            {
                if (value is JsonObject source)
                {
                    // A null destination means the source's name; "" means the job's root.
                    var destination = JobDocument.Get(source, "destinationFolder") is null ? name : JobDocument.GetString(source, "destinationFolder") ?? name;
                    sources.Add(Create(name, source, destination));
                }
            }
        }
        else if (job.Get("source") is JsonObject single)
        {
            sources.Add(Create("", single, ""));
        }

        return sources;
    }

    public static AgentJobSource? Find(AgentJob job, string? name) =>
        Read(job).FirstOrDefault(s => string.Equals(s.Name, name ?? "", StringComparison.OrdinalIgnoreCase))
        ?? (string.IsNullOrEmpty(name) && Read(job) is [var first, ..] ? first : null);

    private static AgentJobSource Create(string name, JsonObject source, string destination) => new(
        name,
        JobDocument.GetString(source, "localFolder"),
        JobDocument.GetString(source, "repository"),
        JobDocument.GetString(source, "branchOrCommit"),
        JobDocument.GetBool(source, "initSubmodules"),
        destination);
}

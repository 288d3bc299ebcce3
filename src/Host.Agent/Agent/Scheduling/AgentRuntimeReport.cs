using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Protocol;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// A job's server said what its runtime runs with (<c>#runtime-config</c>, printed by <c>serve --report-runtime</c>):
/// each key becomes the text measurement <c>benchmarks/runtime/&lt;key&gt;</c> with its description, kept once
/// (crank's <c>First</c>), so a crank user reads what the runtime actually ran with beside what the job asked for.
/// Only the line's known keys are kept, each value at most <see cref="LongestValue"/> characters: a job's output is
/// its own to write, and cannot add names of its choosing to its results this way.
/// </summary>
internal static class AgentRuntimeReport
{
    public const int LongestValue = 64;

    /// <summary>Whether <paramref name="line"/> was the report (the first one of the job is kept).</summary>
    public static bool Apply(AgentJob job, string line)
    {
        ArgumentNullException.ThrowIfNull(job);
        if (!line.StartsWith(RuntimeConfiguration.Prefix, StringComparison.Ordinal) || RuntimeConfiguration.Parse(line) is not { } reported)
        {
            return false;
        }

        foreach (var (key, value) in reported.Values)
        {
            var name = RuntimeReportMeasures.Prefix + key;
            if (!RuntimeReportMeasures.Keys.TryGetValue(key, out var description) || value.Length > LongestValue || job.HasMetadata(name))
            {
                continue;
            }

            job.AddMetadata(new JsonObject
            {
                ["source"] = "Benchmarks",
                ["name"] = name,
                ["aggregate"] = "First",
                ["reduce"] = "First",
                ["format"] = "",
                ["shortDescription"] = $"Server runtime: {key}",
                ["longDescription"] = description,
            });
            job.AddMeasurement(name, JsonValue.Create(value));
        }

        return true;
    }
}

using Benchmarks.Host.Verdicts;

namespace Benchmarks.Host.Agent.Scheduling;

/// <summary>
/// The samples of the console jobs (loads) this agent ran lately, by crank's run id, so that a
/// server of the same run, stopped after them, counts their CPU in its verdict: crank deletes a load
/// job, and its measurements with it, before it stops the server. At most <see cref="Capacity"/> are
/// kept; the oldest go first.
/// </summary>
internal sealed class RecentLoads
{
    public const int Capacity = 16;

    private readonly Lock _lock = new();
    private readonly List<(string RunId, LoadSamples Load)> _loads = [];

    public void Keep(string runId, IReadOnlyList<JobSample> samples, IReadOnlyList<int>? cpus)
    {
        ArgumentNullException.ThrowIfNull(samples);
        lock (_lock)
        {
            _loads.Add((runId, new LoadSamples([.. samples], cpus)));
            if (_loads.Count > Capacity)
            {
                _loads.RemoveAt(0);
            }
        }
    }

    public IReadOnlyList<LoadSamples> Of(string runId)
    {
        lock (_lock)
        {
            return [.. _loads.Where(l => l.RunId == runId).Select(l => l.Load)];
        }
    }
}

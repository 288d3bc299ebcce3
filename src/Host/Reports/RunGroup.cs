using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>One side of a comparison: what the user asked for and the runs it matched.</summary>
internal sealed record RunGroup(string Selector, IReadOnlyList<RunDocument> Runs)
{
    public string Scenario => Runs.Count == 0 ? "" : Runs[0].Scenario;

    public string Describe() => $"{Selector} ({Runs.Count} run{(Runs.Count == 1 ? "" : "s")}: {Scenario} on {string.Join('/', Runs.Select(r => r.Server).Distinct())})";
}

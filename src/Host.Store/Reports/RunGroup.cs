using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Reports;

/// <summary>One side of a comparison: what the user asked for, the runs it matched, and how many failed runs it matched that cannot be compared.</summary>
internal sealed record RunGroup(string Selector, IReadOnlyList<RunDocument> Runs, int FailedLeftOut = 0)
{
    public string Scenario => Runs.Count == 0 ? "" : Runs[0].Scenario;

    public string Describe() =>
        $"{Selector} ({Runs.Count} run{(Runs.Count == 1 ? "" : "s")}: {Scenario} on {string.Join('/', Runs.Select(r => r.Server).Distinct())}" +
        $"{(FailedLeftOut > 0 ? $"; {FailedLeftOut} failed run{(FailedLeftOut == 1 ? "" : "s")} left out" : "")})";
}

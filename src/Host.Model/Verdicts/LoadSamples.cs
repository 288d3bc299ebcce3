namespace Benchmarks.Host.Verdicts;

/// <summary>
/// A load job's own samples on the server's machine (its <c>benchmarks/cpu/user</c> and
/// <c>kernel</c> each interval) and the CPUs it ran on, null for all.
/// </summary>
internal sealed record LoadSamples(IReadOnlyList<JobSample> Samples, IReadOnlyList<int>? Cpus);

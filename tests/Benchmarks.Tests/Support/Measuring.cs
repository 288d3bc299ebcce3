namespace Benchmarks.Tests.Support;

/// <summary>
/// The tests that measure: rates, latencies, CPU split, allocations per request, warm-up and
/// steadiness read from real per-second rates. xunit runs this collection after every parallel
/// collection has finished, one test at a time, so no measuring test shares the machine with
/// another test. Every other class is its own collection and runs in parallel with the rest.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class Measuring
{
    public const string Name = "Measuring";
}

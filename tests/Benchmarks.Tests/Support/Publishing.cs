namespace Benchmarks.Tests.Support;

/// <summary>
/// The replays of crank's recordings whose agent publishes this repository's framework-dependent
/// build from uploaded sources: one collection with one agent, so the build is published once and
/// reused as on a lab machine. The publishing collections' agents share one build cache (<see
/// cref="ReplayAgent"/>), so a build one of them published is not published again by another. They
/// start first (<see cref="LongestFirst"/>); the other parallel collections fill the time beside them.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning(150)]
public sealed class Publishing : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing";
}

namespace Benchmarks.Tests.Support;

/// <summary>
/// The tests whose agent publishes this repository's framework-dependent build from uploaded
/// sources (crank's replays and the crank pipelined run): one collection with one agent, so the
/// build is published once and reused as on a lab machine. It starts first (<see
/// cref="LongestFirst"/>), beside <see cref="PublishingSelfContained"/> and <see
/// cref="PublishingBuildFiles"/>; the other parallel collections fill the time beside them.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning]
public sealed class Publishing : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing";
}

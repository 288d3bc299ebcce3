namespace Benchmarks.Tests.Support;

/// <summary>
/// The tests whose agent publishes this repository from uploaded sources (crank's replays and the
/// crank pipelined run): one collection with one agent, so each build (framework-dependent,
/// self-contained, with build files) is published once and reused as on a lab machine, and no two
/// publishes fight for the CPU. It starts first (<see cref="LongestFirst"/>); the other parallel
/// collections fill the time beside it.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning]
public sealed class Publishing : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing";
}

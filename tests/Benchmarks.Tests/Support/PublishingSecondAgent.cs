namespace Benchmarks.Tests.Support;

/// <summary>
/// A second agent for the tests that need the framework-dependent build (the crank pipelined run
/// end to end, the replays of files and faults): it shares the publishing agents' build cache, so
/// it waits for the build <see cref="Publishing"/> publishes (or publishes it first) and then runs
/// beside the other replays rather than after them. It starts first too.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning(120)]
public sealed class PublishingSecondAgent : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing, second agent";
}

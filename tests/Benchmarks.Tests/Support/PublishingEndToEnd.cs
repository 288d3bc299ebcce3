namespace Benchmarks.Tests.Support;

/// <summary>
/// The crank pipelined run end to end (<c>AgentEndToEndTests</c>): a collection and an agent of its
/// own, sharing the publishing agents' build cache, so it waits for the framework-dependent build
/// <see cref="Publishing"/> publishes (or publishes it first) and then runs beside the replays
/// rather than after them. It starts first too.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning]
public sealed class PublishingEndToEnd : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing end to end";
}

namespace Benchmarks.Tests.Support;

/// <summary>
/// The replays whose builds no other test shares (self-contained, with build files): a second
/// collection with an agent of its own, so its publishes run beside <see cref="Publishing"/>'s
/// rather than after them. Two publishes at a time at most; it starts first too.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning]
public sealed class PublishingApart : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing apart";
}

namespace Benchmarks.Tests.Support;

/// <summary>
/// The replay whose job carries build files: they change the sources, so its publish is shared
/// with no other test. A collection and an agent of its own, beside <see cref="Publishing"/> and
/// <see cref="PublishingSelfContained"/>; it starts first too.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning(90)]
public sealed class PublishingBuildFiles : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing with build files";
}

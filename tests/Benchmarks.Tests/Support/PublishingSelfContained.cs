namespace Benchmarks.Tests.Support;

/// <summary>
/// The replay of crank's default, self-contained job document: its publish is shared with no other
/// test, so it has a collection and an agent of its own and runs beside <see cref="Publishing"/>
/// and <see cref="PublishingBuildFiles"/> rather than after them. It starts first too.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning(90)]
public sealed class PublishingSelfContained : ICollectionFixture<ReplayAgent>
{
    public const string Name = "Publishing self-contained";
}

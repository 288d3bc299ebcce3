namespace Benchmarks.Tests.Support;

/// <summary>
/// The Windows tier: the win-x64 self-contained build run under Wine, in a prefix of its own
/// (<see cref="WinePrefix"/>). One collection, so the prefix and its wineserver are made once;
/// it starts early (<see cref="LongestFirst"/>) beside the other parallel collections.
/// </summary>
[CollectionDefinition(Name)]
[LongRunning(160)]
public sealed class Wine : ICollectionFixture<WinePrefix>
{
    public const string Name = "Wine";
}

using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>The long collections start first, longest first: the orderer finds the class a collection is named after, as xunit names it.</summary>
public sealed class LongestFirstTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_class_collection_is_found_by_the_name_xunit_gives_it_and_its_seconds_order_it()
    {
        // This test's own collection, named as the running xunit names it.
        var own = TestContext.Current.TestCollection!;
        Assert.Equal(typeof(LongestFirstTests), LongestFirst.ClassOf(own.TestCollectionDisplayName));
        Assert.Equal(0, LongestFirst.Seconds(own));

        var native = own.TestCollectionDisplayName.Replace(nameof(LongestFirstTests), nameof(Runs.NativeServerRunTests), StringComparison.Ordinal)
            .Replace("Architecture", "Runs", StringComparison.Ordinal);
        Assert.Equal(typeof(Runs.NativeServerRunTests), LongestFirst.ClassOf(native));
        Assert.Null(LongestFirst.ClassOf("Measuring"));
    }
}

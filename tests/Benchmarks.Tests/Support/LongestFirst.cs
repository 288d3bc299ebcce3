using System.Reflection;
using Xunit.Sdk;
using Xunit.v3;

[assembly: TestCollectionOrderer(typeof(Benchmarks.Tests.Support.LongestFirst))]

namespace Benchmarks.Tests.Support;

/// <summary>
/// Orders the test collections: the collections marked <see cref="LongRunningAttribute"/> first (a
/// defined collection, or a test class that is its own collection), longest first, the rest by name, so that the
/// parallel tier does not end on a long class started last while the others have finished. The
/// measuring collection runs after all of them whatever its place here.
/// </summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    public IReadOnlyCollection<TTestCollection> OrderTestCollections<TTestCollection>(IReadOnlyCollection<TTestCollection> testCollections)
        where TTestCollection : ITestCollection =>
        [.. testCollections.OrderByDescending(c => Seconds(c)).ThenBy(c => c.TestCollectionDisplayName, StringComparer.Ordinal)];

    private const string ClassCollection = "Test collection for ";

    /// <summary>What xunit v3 adds to a class's own collection's name after the class's: " (id: HASH)".</summary>
    private const string IdSuffix = " (id: ";

    /// <summary>The collection's <see cref="LongRunningAttribute.Seconds"/>; 0 when it is not marked long.</summary>
    internal static int Seconds(ITestCollection collection) =>
        (collection is IXunitTestCollection { CollectionDefinition: { } definition }
            ? definition.GetCustomAttribute<LongRunningAttribute>()
            : ClassOf(collection.TestCollectionDisplayName) is { } type ? type.GetCustomAttribute<LongRunningAttribute>() : null)?.Seconds ?? 0;

    /// <summary>The test class a class's own collection is named after, or null.</summary>
    internal static Type? ClassOf(string displayName)
    {
        if (!displayName.StartsWith(ClassCollection, StringComparison.Ordinal))
        {
            return null;
        }

        var name = displayName[ClassCollection.Length..];
        var id = name.IndexOf(IdSuffix, StringComparison.Ordinal);
        return typeof(LongestFirst).Assembly.GetType(id >= 0 ? name[..id] : name);
    }
}

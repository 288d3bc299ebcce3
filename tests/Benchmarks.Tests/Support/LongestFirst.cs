using System.Reflection;
using Xunit.Sdk;
using Xunit.v3;

[assembly: TestCollectionOrderer(typeof(Benchmarks.Tests.Support.LongestFirst))]

namespace Benchmarks.Tests.Support;

/// <summary>
/// Orders the test collections: the collections marked <see cref="LongRunningAttribute"/> first (a
/// defined collection, or a test class that is its own collection), the rest by name, so that the
/// parallel tier does not end on a long class started last while the others have finished. The
/// measuring collection runs after all of them whatever its place here.
/// </summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    public IReadOnlyCollection<TTestCollection> OrderTestCollections<TTestCollection>(IReadOnlyCollection<TTestCollection> testCollections)
        where TTestCollection : ITestCollection =>
        [.. testCollections.OrderBy(c => IsLong(c) ? 0 : 1).ThenBy(c => c.TestCollectionDisplayName, StringComparer.Ordinal)];

    private const string ClassCollection = "Test collection for ";

    private static bool IsLong(ITestCollection collection) =>
        collection is IXunitTestCollection { CollectionDefinition: { } definition }
            ? definition.GetCustomAttribute<LongRunningAttribute>() is not null
            : collection.TestCollectionDisplayName.StartsWith(ClassCollection, StringComparison.Ordinal)
                && typeof(LongestFirst).Assembly.GetType(collection.TestCollectionDisplayName[ClassCollection.Length..]) is { } type
                && type.GetCustomAttribute<LongRunningAttribute>() is not null;
}

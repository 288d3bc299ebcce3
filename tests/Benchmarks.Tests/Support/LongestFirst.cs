using System.Reflection;
using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: TestCollectionOrderer("Benchmarks.Tests.Support.LongestFirst", "Benchmarks.Tests")]

namespace Benchmarks.Tests.Support;

/// <summary>
/// Orders the test collections: the collections marked <see cref="LongRunningAttribute"/> first (a
/// defined collection, or a test class that is its own collection), the rest by name, so that the
/// parallel tier does not end on a long class started last while the others have finished. The
/// measuring collection runs after all of them whatever its place here.
/// </summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderBy(c => IsLong(c) ? 0 : 1).ThenBy(c => c.DisplayName, StringComparer.Ordinal);

    private const string ClassCollection = "Test collection for ";

    private static bool IsLong(ITestCollection collection) =>
        collection.CollectionDefinition is IReflectionTypeInfo definition
            ? definition.Type.GetCustomAttribute<LongRunningAttribute>() is not null
            : collection.DisplayName.StartsWith(ClassCollection, StringComparison.Ordinal)
                && typeof(LongestFirst).Assembly.GetType(collection.DisplayName[ClassCollection.Length..]) is { } type
                && type.GetCustomAttribute<LongRunningAttribute>() is not null;
}

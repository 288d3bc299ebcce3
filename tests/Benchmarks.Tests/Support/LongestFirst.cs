using System.Reflection;
using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: TestCollectionOrderer("Benchmarks.Tests.Support.LongestFirst", "Benchmarks.Tests")]

namespace Benchmarks.Tests.Support;

/// <summary>
/// Orders the test collections: the collections marked <see cref="LongRunningAttribute"/> first, the
/// rest by name. The measuring collection runs after all of them whatever its place here.
/// </summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderBy(c => IsLong(c) ? 0 : 1).ThenBy(c => c.DisplayName, StringComparer.Ordinal);

    private static bool IsLong(ITestCollection collection) =>
        collection.CollectionDefinition is IReflectionTypeInfo definition && definition.Type.GetCustomAttribute<LongRunningAttribute>() is not null;
}

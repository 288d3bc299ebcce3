using System.Reflection;
using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: TestCollectionOrderer("Benchmarks.Tests.Support.LongestFirst", "Benchmarks.Tests")]

namespace Benchmarks.Tests.Support;

/// <summary>
/// Orders the test collections: the classes marked <see cref="LongRunningAttribute"/> first, the
/// rest by name. The measuring collection runs after all of them whatever its place here.
/// </summary>
public sealed class LongestFirst : ITestCollectionOrderer
{
    private const string Prefix = "Test collection for ";

    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderBy(c => IsLong(c) ? 0 : 1).ThenBy(c => c.DisplayName, StringComparer.Ordinal);

    private static bool IsLong(ITestCollection collection) =>
        collection.DisplayName.StartsWith(Prefix, StringComparison.Ordinal)
        && typeof(LongestFirst).Assembly.GetType(collection.DisplayName[Prefix.Length..]) is { } type
        && type.GetCustomAttribute<LongRunningAttribute>() is not null;
}

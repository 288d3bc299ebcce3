namespace Benchmarks.Tests.Support;

/// <summary>
/// A test collection that takes minutes (its agent publishes this repository), or a test class
/// whose tests take 40 s or more together: <see cref="LongestFirst"/> starts it before the others,
/// which then fill the time beside it instead of leaving it to run alone at the end.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class LongRunningAttribute : Attribute;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A test class that takes minutes because it publishes this repository (an agent building
/// uploaded sources): <see cref="LongestFirst"/> starts it before the others, which then fill the
/// time beside it instead of leaving it to run alone at the end.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class LongRunningAttribute : Attribute;

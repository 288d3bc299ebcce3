namespace Benchmarks.Tests.Support;

/// <summary>
/// A test collection that takes minutes (its agent publishes this repository), or a test class
/// whose tests take 40 s or more together: <see cref="LongestFirst"/> starts it before the others,
/// the longest first by <see cref="Seconds"/>, so the others fill the time beside it instead of
/// leaving it to run alone at the end.
/// </summary>
/// <param name="seconds">About how long the collection takes beside the others (a suite's timeline says), which orders the long ones among themselves.</param>
[AttributeUsage(AttributeTargets.Class)]
public sealed class LongRunningAttribute(int seconds = 40) : Attribute
{
    public int Seconds { get; } = seconds;
}

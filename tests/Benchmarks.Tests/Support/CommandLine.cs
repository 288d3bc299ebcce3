namespace Benchmarks.Tests.Support;

/// <summary>Splits a crank arguments string on spaces (the configurations here use no quoting).</summary>
internal static class CommandLine
{
    public static string[] Split(string arguments) => arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries);
}

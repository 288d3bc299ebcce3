namespace Benchmarks.Host.Cli;

/// <summary>Where a command writes: the process's console, or a test's writers.</summary>
internal sealed record CliConsole(TextWriter Out, TextWriter Error)
{
    public static CliConsole System { get; } = new(Console.Out, Console.Error);

    /// <summary>The clock commands read "now" from (a stopped series is one with no run for twice its usual interval by now).</summary>
    public TimeProvider Time { get; init; } = TimeProvider.System;

    public int Fail(int exitCode, string message)
    {
        Error.WriteLine($"error: {message}");
        return exitCode;
    }
}

namespace Benchmarks.Host.Cli;

/// <summary>Where a command writes: the process's console, or a test's writers.</summary>
internal sealed record CliConsole(TextWriter Out, TextWriter Error)
{
    public static CliConsole System { get; } = new(Console.Out, Console.Error);

    public int Fail(int exitCode, string message)
    {
        Error.WriteLine($"error: {message}");
        return exitCode;
    }
}

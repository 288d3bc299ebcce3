using Benchmarks.Host.Cli;

namespace Benchmarks.Host.Commands;

/// <summary>The one mapping of a bad argument to its exit code: a one-line cause and exit code 2.</summary>
internal static class UsageErrors
{
    /// <summary>True for the exceptions that mean "the arguments cannot work" (a usage error, a value out of range, a malformed value).</summary>
    public static bool Is(Exception exception) => exception is UsageException or ArgumentException or FormatException;

    public static int Report(CliConsole console, Exception exception)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(exception);
        return console.Fail(ExitCodes.Usage, exception.Message);
    }
}

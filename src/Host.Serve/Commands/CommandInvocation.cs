using System.CommandLine;
using Benchmarks.Host.Cli;

namespace Benchmarks.Host.Commands;

/// <summary>
/// How a command tree is run, by the host and by a published server alike: parse errors in one line
/// each and exit code 2, signals left to the commands.
/// </summary>
internal static class CommandInvocation
{
    public static async Task<int> InvokeAsync(RootCommand root, string[] args, CliConsole console, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(root);
        ArgumentNullException.ThrowIfNull(console);
        var parseResult = root.Parse(args);
        if (parseResult.Errors.Count > 0)
        {
            foreach (var error in parseResult.Errors)
            {
                console.Error.WriteLine($"error: {ParseErrorText.Of(error.Message)}");
            }

            console.Error.WriteLine("Run 'benchmarks --help' for usage.");
            return ExitCodes.Usage;
        }

        // Signals are handled by the commands themselves, so that a server can drain and a run can store a failed document.
        var configuration = new InvocationConfiguration { Output = console.Out, Error = console.Error, ProcessTerminationTimeout = null };
        return await parseResult.InvokeAsync(configuration, cancellationToken);
    }
}

using Benchmarks.Host.Cli;
using Benchmarks.Host.Crank;

namespace Benchmarks.Host.Commands;

/// <summary>
/// The end of every <c>load</c> engine, in one place: the engine's own result to <c>--json</c>,
/// its measurements as a crank statistics block (what <c>run</c> and the agent read), then the
/// exit code — 0 when clean, else 1 with the one-line cause.
/// </summary>
internal static class LoadOutput
{
    public static async Task<int> FinishAsync(CliConsole console, LoadOutcome outcome, FileInfo? json, bool crankStatistics)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(outcome);
        if (json is not null)
        {
            await File.WriteAllTextAsync(json.FullName, outcome.Json(), CancellationToken.None);
        }

        if (crankStatistics)
        {
            console.Out.WriteLine(CrankStatistics.Format(outcome.Measurements, DateTimeOffset.UtcNow));
        }

        return outcome.Failure is null ? ExitCodes.Success : console.Fail(ExitCodes.Failed, outcome.Failure);
    }
}

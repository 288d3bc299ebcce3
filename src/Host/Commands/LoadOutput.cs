using System.CommandLine;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Crank;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Runs;

namespace Benchmarks.Host.Commands;

/// <summary>
/// The end of every <c>load</c> generator, in one place: the generator's own result to <c>--json</c>,
/// its latency distribution to <c>--latency-distribution</c>, its measurements as a crank statistics block (what <c>run</c> and the agent read), then the
/// exit code — 0 when clean, else 1 with the one-line cause.
/// </summary>
internal static class LoadOutput
{
    /// <summary>
    /// Runs one generator to its end, with progress lines when asked; a stop before the end (Ctrl+C,
    /// the parent gone) is exit 1 with its reason, and no result.
    /// </summary>
    public static async Task<(T? Result, int ExitCode)> RunGeneratorAsync<T>(
        CliConsole console, ShutdownSignal signal, bool progress, Func<IProgress<Benchmarks.Load.Core.LoadProgress>?, CancellationToken, Task<T>> generator)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(signal);
        ArgumentNullException.ThrowIfNull(generator);
        try
        {
            return (await generator(progress ? new ProgressLines(console) : null, signal.Token), ExitCodes.Success);
        }
        catch (OperationCanceledException)
        {
            return (null, console.Fail(signal.FailureCode, $"load stopped: {signal.Reason ?? "cancelled"}"));
        }
    }

    /// <summary>
    /// A built-in generator from its start to its exit code: the socket engine's threads set, the
    /// generator run, then <paramref name="finish"/> writes its summary and says its outcome, which
    /// <see cref="FinishAsync"/> puts out.
    /// </summary>
    public static async Task<int> RunBuiltInAsync<T>(
        CliConsole console, ShutdownSignal signal, ParseResult result, LoadOutputOptionSet output, int threads,
        Func<IProgress<Benchmarks.Load.Core.LoadProgress>?, CancellationToken, Task<T>> generator, Func<T, LoadOutcome> finish)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(finish);
        SocketEngine.Configure(threads);
        var (outcome, stopped) = await RunGeneratorAsync(console, signal, result.GetValue(output.Progress), generator);
        return outcome is null ? stopped : await FinishAsync(console, finish(outcome), result, output, signal.FailureCode);
    }

    /// <summary>
    /// <see cref="RunBuiltInAsync{T}"/> from the options: a value <paramref name="options"/> rejects
    /// is a usage error (exit 2) before anything starts.
    /// </summary>
    public static async Task<int> RunBuiltInAsync<TOptions, T>(
        CliConsole console, ParseResult result, LoadOutputOptionSet output, LoadOptionSet load, Func<TOptions> options,
        Func<TOptions, IProgress<Benchmarks.Load.Core.LoadProgress>?, CancellationToken, Task<T>> generator, Func<T, LoadOutcome> finish,
        CancellationToken cancellationToken)
        where TOptions : class
        where T : class
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(load);
        TOptions chosen;
        try
        {
            chosen = options();
        }
        catch (Exception ex) when (UsageErrors.Is(ex))
        {
            return UsageErrors.Report(console, ex);
        }

        using var signal = new ShutdownSignal(cancellationToken, result.GetValue(output.Parent));
        return await RunBuiltInAsync(console, signal, result, output, load.Read(result).Get(LoadParameters.Threads) ?? Benchmarks.Load.DefaultLoad.Threads,
            (progress, token) => generator(chosen, progress, token), finish);
    }

    public static async Task<int> FinishAsync(CliConsole console, LoadOutcome outcome, ParseResult result, LoadOutputOptionSet output,
        int failureCode = ExitCodes.Failed)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(outcome);
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(output);
        if (result.GetValue(output.Json) is { } json)
        {
            await File.WriteAllTextAsync(json.FullName, outcome.Json(), CancellationToken.None);
        }

        if (result.GetValue(output.Crank))
        {
            // The window's histogram too, so that the latency of several load instances can be merged (results import).
            var histogram = outcome.Latency is { TotalCount: > 0 } latency && LatencyMeasures.Of(outcome.Measurements) is { } family
                ? new Dictionary<string, string>(StringComparer.Ordinal) { [family.Histogram] = LatencyDistribution.Encode(latency) }
                : null;
            // The window's line too, shown in crank's table: whether the figures above came from a steady window.
            var window = outcome.Window is { } line
                ? new[]
                {
                    (CrankStatistics.WindowBrief, CrankText.Brief(line), CrankMetadata.ForText(CrankStatistics.WindowBrief,
                        "Window (the load's measured seconds)",
                        "Whether the load's measured window was steady: its window: line's first clause, its figures in load/window")),
                    (CrankStatistics.Window, line, CrankMetadata.ForText(CrankStatistics.Window, CrankStatistics.Window,
                        "Whether the load's measured window was steady: its whole window: line, with the rate's drift, " +
                        "its z and how much its seconds varied (docs/methodology.md)",
                        "object")),
                }
                : null;
            console.Out.WriteLine(CrankStatistics.Format(outcome.Measurements, DateTimeOffset.UtcNow, histogram, window));
        }

        // After the measurements are out: a file that cannot be written loses nothing else.
        if (result.GetValue(output.Distribution) is { } distribution)
        {
            if (outcome.Latency is not { } histogram)
            {
                console.Error.WriteLine($"warning: this load times no request or round trip: no latency distribution written to {distribution.FullName}.");
            }
            else
            {
                try
                {
                    await LatencyDistribution.WriteAsync(distribution.FullName, histogram);
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
                {
                    console.Error.WriteLine($"warning: the latency distribution could not be written to {distribution.FullName}: {ex.Message}");
                }
            }
        }

        if (outcome.Failure is not null)
        {
            return console.Fail(failureCode, outcome.Failure);
        }

        if (result.GetValue(output.Slo) is { } slo)
        {
            var target = ServiceLevel.Parse(slo);
            var (met, reason) = target.Check(outcome.Measurements);
            console.Out.WriteLine(target.Describe(met, reason));
            return met ? ExitCodes.Success : ExitCodes.TargetMissed;
        }

        return ExitCodes.Success;
    }
}

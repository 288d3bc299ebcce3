using System.CommandLine;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Crank;
using Benchmarks.Host.Jobs;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Platform;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>benchmarks load --generator wrk</c>: wrk as an external load job (a warm-up run, then the
/// measured run with <c>--latency</c>), its report printed as it ran and turned into the same
/// measurements as the built-in generator's — so a crank job can run wrk and still report.
/// </summary>
internal static class WrkLoad
{
    public static async Task<int> RunAsync(CliConsole console, HttpLoadOptions options, ParseResult result, LoadOutputOptionSet output, ShutdownSignal signal)
    {
        if (WrkLoadJob.Locate() is null)
        {
            return console.Fail(ExitCodes.Usage, WrkLoadJob.InstallHint);
        }

        var control = OsPlatform.CreateProcessControl();
        var directory = Directory.CreateTempSubdirectory("benchmarks-wrk-").FullName;
        try
        {
            if (options.Warmup > TimeSpan.Zero)
            {
                await using var warmup = JobProcess.Start(WrkLoadJob.Command(options, null, directory, options.Warmup, "wrk-warmup"), control);
                AnnounceChild(console, result.GetValue(output.Crank), warmup.Id);
                if (!await WaitAsync(warmup, signal))
                {
                    return console.Fail(ExitCodes.Failed, $"load stopped during the wrk warm-up: {signal.Reason ?? "cancelled"}");
                }
            }

            await using var main = JobProcess.Start(WrkLoadJob.Command(options, null, directory, options.Duration, "wrk"), control, (line, isError) =>
            {
                if (!isError)
                {
                    console.Out.WriteLine(line);
                }
                else
                {
                    console.Error.WriteLine(line);
                }
            });
            AnnounceChild(console, result.GetValue(output.Crank), main.Id);
            if (!await WaitAsync(main, signal))
            {
                return console.Fail(ExitCodes.Failed, $"load stopped: {signal.Reason ?? "cancelled"}");
            }

            var (measurements, failure) = WrkLoadJob.Collect(main);
            if (failure?.Output is { } tail)
            {
                console.Error.WriteLine(tail);
            }

            if (measurements is null)
            {
                return console.Fail(ExitCodes.Failed, failure?.Cause ?? "wrk printed no report");
            }

            return await LoadOutput.FinishAsync(console, new LoadOutcome(measurements, () => JsonSerializer.Serialize(measurements), failure?.Cause), result, output);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>
    /// Under a crank agent (<c>--crank-statistics</c>), names the wrk process on stderr as crank's
    /// <c>##ChildProcessId</c> line, so the agent measures wrk's CPU and memory, not this wrapper's.
    /// </summary>
    private static void AnnounceChild(CliConsole console, bool crank, int processId)
    {
        if (crank)
        {
            console.Error.WriteLine(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"##ChildProcessId:{processId}"));
            console.Error.Flush();
        }
    }

    /// <summary>False when stopped (Ctrl+C, SIGTERM) before wrk ended; wrk is then stopped too.</summary>
    private static async Task<bool> WaitAsync(JobProcess wrk, ShutdownSignal signal)
    {
        try
        {
            await wrk.Exited.WaitAsync(signal.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            await wrk.StopAsync(TimeSpan.FromSeconds(2));
            return false;
        }
    }
}

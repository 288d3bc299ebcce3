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
/// <c>benchmarks load --generator wrk|h2load</c>: an external load tool as a load job (wrk: a
/// warm-up run, then the measured run with <c>--latency</c>; h2load: one timing-based run with its
/// own warm-up), its report printed as it ran and turned into the same measurements as the
/// built-in generator's — so a crank job can run either and still report.
/// </summary>
internal static class ExternalLoad
{
    public static async Task<int> RunAsync(CliConsole console, ILoadJob job, string installHint, bool installed, HttpLoadOptions options, ParseResult result,
        LoadOutputOptionSet output, ShutdownSignal signal)
    {
        if (!installed)
        {
            return console.Fail(ExitCodes.Usage, installHint);
        }

        var control = OsPlatform.CreateProcessControl();
        var directory = Directory.CreateTempSubdirectory($"benchmarks-{job.Name}-").FullName;
        var launch = new LoadLaunch("", options);
        try
        {
            if (job.Warmup(launch, directory) is { } warmupStart)
            {
                await using var warmup = JobProcess.Start(warmupStart, control);
                AnnounceChild(console, result.GetValue(output.Crank), warmup.Id);
                if (!await WaitAsync(warmup, signal))
                {
                    return console.Fail(signal.FailureCode, $"load stopped during the {job.Name} warm-up: {signal.Reason ?? "cancelled"}");
                }
            }

            await using var main = JobProcess.Start(job.Main(launch, directory), control, (line, isError) =>
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
                return console.Fail(signal.FailureCode, $"load stopped: {signal.Reason ?? "cancelled"}");
            }

            var (measurements, failure) = job.Collect(main, null);
            if (failure?.Output is { } tail)
            {
                console.Error.WriteLine(tail);
            }

            if (measurements is null)
            {
                return console.Fail(ExitCodes.Failed, failure?.Cause ?? $"{job.Name} printed no report");
            }

            return await LoadOutput.FinishAsync(console, new LoadOutcome(measurements, () => JsonSerializer.Serialize(measurements), failure?.Cause), result,
                output, signal.FailureCode);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>
    /// Under a crank agent (<c>--crank-statistics</c>), names the wrk process on stderr as crank's
    /// <c>##ChildProcessId</c> line, so the agent measures the tool's CPU and memory, not this wrapper's.
    /// </summary>
    private static void AnnounceChild(CliConsole console, bool crank, int processId)
    {
        if (crank)
        {
            console.Error.WriteLine(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"##ChildProcessId:{processId}"));
            console.Error.Flush();
        }
    }

    /// <summary>False when stopped (Ctrl+C, SIGTERM) before the tool ended; it is then stopped too.</summary>
    private static async Task<bool> WaitAsync(JobProcess tool, ShutdownSignal signal)
    {
        try
        {
            await tool.Exited.WaitAsync(signal.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            await tool.StopAsync(TimeSpan.FromSeconds(2));
            return false;
        }
    }
}

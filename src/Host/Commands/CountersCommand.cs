using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks counters PID</c>: a running .NET process's runtime counters each second, as a run reads them.</summary>
internal static class CountersCommand
{
    public static Command Create(CliConsole console)
    {
        var processId = new Argument<int>("pid") { Description = "The .NET process to read." };
        var duration = OptionFactory.Duration("--duration", "-d", "How long to read (default 10s).");
        var interval = new Option<double>("--interval") { Description = "Seconds between the runtime's reports (a run uses 0.25; crank's agent 1).",
            DefaultValueFactory = _ => 0.25 };
        var providers = new Option<string[]>("--provider") { Description = "EventCounter providers to read (repeatable; default System.Runtime).",
            Arity = ArgumentArity.ZeroOrMore };
        var command = new Command("counters",
            "Print a running .NET process's runtime counters each second (GC, allocations, thread pool, locks), " +
            "read over EventPipe as a run reads its server's.")
        {
            processId, duration, interval, providers,
        };
        command.SetAction(async (result, cancellationToken) =>
        {
            var every = result.GetValue(interval);
            if (every is not (>= 0.1 and <= 60))
            {
                return console.Fail(ExitCodes.Usage, "--interval must be between 0.1 and 60 seconds");
            }

            string[] chosen = result.GetValue(providers) is { Length: > 0 } named ? named : [RuntimeCounterSession.RuntimeProvider];
            var (session, error) = await RuntimeCounterSession.StartAsync(result.GetValue(processId), chosen, every, cancellationToken);
            if (session is null)
            {
                return console.Fail(ExitCodes.Failed, error!);
            }

            await using (session)
            {
                var end = Stopwatch.GetTimestamp() + (long)((result.GetValue(duration) ?? TimeSpan.FromSeconds(10)).TotalSeconds * Stopwatch.Frequency);
                var previous = (At: Stopwatch.GetTimestamp(), Counters: session.Snapshot());
                using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
                try
                {
                    while (Stopwatch.GetTimestamp() < end && await timer.WaitForNextTickAsync(cancellationToken))
                    {
                        var now = (At: Stopwatch.GetTimestamp(), Counters: session.Snapshot());
                        var values = new SortedDictionary<string, double>(StringComparer.Ordinal);
                        MetricsDelta.Runtime(values, previous.Counters, now.Counters, Stopwatch.GetElapsedTime(previous.At, now.At).TotalSeconds);
                        console.Out.WriteLine(Line(values));
                        previous = now;
                    }
                }
                catch (OperationCanceledException)
                {
                }
            }

            console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{session.Reports:#,0} counter reports read"));
            return ExitCodes.Success;
        });
        return command;
    }

    private static string Line(SortedDictionary<string, double> v) => string.Create(
        CultureInfo.InvariantCulture,
        $"alloc {v.GetValueOrDefault(RuntimeMeasures.AllocRate.Name) / 1e6,8:0.0} MB/s | gc {v.GetValueOrDefault(RuntimeMeasures.Gen0.Name),4:0.#}/s (gen 2 " +
        $"{v.GetValueOrDefault(RuntimeMeasures.Gen2.Name):0.#}), paused {v.GetValueOrDefault(RuntimeMeasures.GcPause.Name):0.#}%, " +
        $"heap {v.GetValueOrDefault(RuntimeMeasures.HeapSize.Name):0} MB | pool {v.GetValueOrDefault(RuntimeMeasures.Threads.Name):0} threads, " +
        $"{v.GetValueOrDefault(RuntimeMeasures.QueueLength.Name):0} queued, {v.GetValueOrDefault(RuntimeMeasures.WorkItems.Name):#,0} items/s | locks " +
        $"{v.GetValueOrDefault(RuntimeMeasures.Contentions.Name):#,0.#}/s | exceptions {v.GetValueOrDefault(RuntimeMeasures.Exceptions.Name):0.#}/s");
}

using System.Diagnostics;
using System.Net;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Tcp;

/// <summary>
/// The built-in TCP load generator: persistent connections echoing fixed-size messages, or churn
/// (a connection per message), every echo checked byte for byte, failures counted by cause. A
/// watchdog ends connects and echoes that outlast the timeout.
/// </summary>
public static class TcpLoadGenerator
{
    public static async Task<TcpLoadResult> RunAsync(TcpLoadOptions options, IProgress<LoadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var endPoint = await HttpLoadGenerator.ResolveAsync(new Uri($"http://{options.Url.Authority}/"), cancellationToken);
        using var state = new TcpRunState();
        var roundTrips = new LatencyHistogram();
        var connects = new LatencyHistogram();
        var connections = new TcpLoadConnection[options.Connections];
        for (var i = 0; i < connections.Length; i++)
        {
            var local = options.LocalAddresses.Count > 0 ? options.LocalAddresses[i % options.LocalAddresses.Count] : null;
            connections[i] = new TcpLoadConnection(options, state, endPoint, local, roundTrips, connects, seed: (i * 7919) + 1);
        }

        var loops = Task.WhenAll(connections.Select(c => Task.Run(c.RunAsync, CancellationToken.None)));
        using var watchdogStop = new CancellationTokenSource();
        var watchdog = WatchAsync(connections, options.Timeout, watchdogStop.Token);
        var clock = new LoadClock(() => Totals(connections), progress, () => connections.Sum(c => Volatile.Read(ref c.Counters.WarmupEchoed)));
        try
        {
            await clock.TickAsync(options.Warmup, measuring: false, cancellationToken);
            state.Measuring = true;
            var cpuAtStart = ProcessCpu.Now();
            var windowStart = Stopwatch.GetTimestamp();
            clock.BeginWindow();
            var interrupted = await clock.RunWindowAsync(options.Duration, cancellationToken);
            state.Measuring = false;
            var elapsed = Stopwatch.GetElapsedTime(windowStart);
            state.Stopping = true;
            clock.EndWindow();
            var cpu = ProcessCpu.Now().Since(cpuAtStart);

            // What is in flight may finish (its echo counts) for up to the timeout; then it is unfinished.
            await Task.WhenAny(loops, Task.Delay(options.Timeout, CancellationToken.None));
            state.AbortNow();
            await loops.ContinueWith(static _ => { }, TaskScheduler.Default);
            return Aggregate(options, connections, roundTrips, connects, elapsed, clock.PerSecond) with
            {
                Interrupted = interrupted,
                CpuUserSeconds = cpu.User,
                CpuKernelSeconds = cpu.Kernel,
                CpuWindowSeconds = cpu.Seconds,
            };
        }
        finally
        {
            state.Stopping = true;
            state.AbortNow();
            await loops.ContinueWith(static _ => { }, TaskScheduler.Default);
            await watchdogStop.CancelAsync();
            await watchdog;
            foreach (var connection in connections)
            {
                connection.Dispose();
            }
        }
    }

    private static async Task WatchAsync(TcpLoadConnection[] connections, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var ticks = (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(100));
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                var now = Stopwatch.GetTimestamp();
                foreach (var connection in connections)
                {
                    connection.CheckTimeout(now, ticks);
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private static (long Completed, long Errors) Totals(TcpLoadConnection[] connections)
    {
        long completed = 0, errors = 0;
        foreach (var connection in connections)
        {
            completed += Volatile.Read(ref connection.Counters.Echoed);
            errors += connection.Counters.FailedTotal + connection.Counters.ConnectFailedTotal;
        }

        return (completed, errors);
    }

    private static TcpLoadResult Aggregate(TcpLoadOptions options, TcpLoadConnection[] connections, LatencyHistogram roundTrips, LatencyHistogram connects, TimeSpan elapsed, IReadOnlyList<double> perSecond)
    {
        var causes = Enum.GetValues<TcpFailure>();
        var failed = causes.ToDictionary(c => Name(c), c => connections.Sum(x => x.Counters.Failed[(int)c]));
        var connectFailed = causes.ToDictionary(c => Name(c), c => connections.Sum(x => x.Counters.ConnectFailed[(int)c]));
        return new TcpLoadResult
        {
            Url = options.Url.ToString(),
            Mode = options.Mode,
            Connections = options.Connections,
            MessageSize = options.MessageSize,
            Window = options.Window,
            LingerZero = options.LingerZero,
            ElapsedSeconds = elapsed.TotalSeconds,
            Sent = connections.Sum(c => c.Counters.Sent),
            Echoed = connections.Sum(c => c.Counters.Echoed),
            Unfinished = connections.Sum(c => c.Counters.Unfinished),
            Connects = connections.Sum(c => c.Counters.Connects),
            Failed = failed,
            ConnectFailed = connectFailed,
            RoundTrip = LatencySummary.From(roundTrips),
            Connect = LatencySummary.From(connects),
            PerSecond = perSecond,
            FirstError = connections.Select(c => c.FirstError).FirstOrDefault(e => e is not null),
        };
    }

    /// <summary>The cause's name as stored and printed: refused, reset, timeout, short-echo, mismatch, ports, other.</summary>
    public static string Name(TcpFailure cause) => cause == TcpFailure.ShortEcho ? "short-echo" : cause.ToString().ToLowerInvariant();
}

using System.Diagnostics;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.WebSockets;

/// <summary>The built-in WebSocket load generator: echo (sync or async) and connection rate, every reply validated.</summary>
public static class WebSocketLoadGenerator
{
    public static async Task<WebSocketLoadResult> RunAsync(WebSocketLoadOptions options, IProgress<LoadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var endPoint = await HttpLoadGenerator.ResolveAsync(options.Url, cancellationToken);
        using var schedule = options.Rate is { } rate ? new OpenModel.ArrivalSchedule(rate) : null;
        using var state = new WebSocketRunState { Schedule = schedule };
        var roundTrips = new LatencyHistogram();
        var uncorrected = schedule is null ? null : new LatencyHistogram();
        var connects = new LatencyHistogram();
        var connections = new WebSocketLoadConnection[options.Connections];
        for (var i = 0; i < connections.Length; i++)
        {
            var local = options.LocalAddresses.Count > 0 ? options.LocalAddresses[i % options.LocalAddresses.Count] : null;
            connections[i] = new WebSocketLoadConnection(options, state, endPoint, local, roundTrips, connects, seed: (i * 7919) + 1, uncorrected);
        }

        var (rssBefore, managedBefore) = Memory();
        if (options.Mode == WebSocketLoadMode.Idle)
        {
            state.Measuring = true;
        }

        schedule?.Start();
        var loops = Task.WhenAll(connections.Select(c => Task.Run(c.RunAsync, CancellationToken.None)));
        var clock = new LoadClock(() => Totals(connections, options.Mode), progress);
        try
        {
            await clock.TickAsync(options.Warmup, measuring: false, cancellationToken);
            var backlogAtStart = schedule is null ? 0 : (await OpenModel.BacklogDrain.WaitAsync(clock, schedule, options.Warmup, cancellationToken)).Backlog;
            state.Measuring = true;
            var cpuAtStart = Statistics.ProcessCpu.Now();
            var windowStart = Stopwatch.GetTimestamp();
            clock.BeginWindow();
            var memory = (Rss: 0.0, Managed: 0.0, Open: 0);
            if (options.Mode == WebSocketLoadMode.Idle)
            {
                memory = await MeasureIdleAsync(state, options, rssBefore, managedBefore, cancellationToken);
            }

            var interrupted = await clock.RunWindowAsync(options.Duration, cancellationToken);

            state.Stopping = true;
            var windowEnd = Stopwatch.GetTimestamp();
            var open = schedule is null ? null : new OpenModel.OpenModelTally(schedule.DueBetween(windowStart, windowEnd), schedule.Backlog);
            schedule?.Stop();
            clock.EndWindow();
            await Task.WhenAny(loops, Task.Delay(options.Timeout, CancellationToken.None));
            state.AbortNow();
            await loops.ContinueWith(static _ => { }, TaskScheduler.Default);
            var cpu = Statistics.ProcessCpu.Now().Since(cpuAtStart);
            // The rate is taken over the window's own length (as the HTTP load's), not stretched by echoes held past its end.
            return Aggregate(options, connections, roundTrips, connects, windowStart, windowEnd, clock.PerSecond) with
            {
                Interrupted = interrupted,
                CpuUserSeconds = cpu.User,
                CpuKernelSeconds = cpu.Kernel,
                CpuWindowSeconds = cpu.Seconds,
                MemoryPerConnection = memory.Rss,
                ManagedMemoryPerConnection = memory.Managed,
                OpenConnections = memory.Open,
                RequestedRate = options.Rate,
                Due = open?.Due ?? 0,
                Backlog = open?.Backlog ?? 0,
                BacklogAtStart = backlogAtStart,
                Late = connections.Sum(c => c.Late),
                LateByLoad = connections.Sum(c => c.LateByLoad),
                Uncorrected = uncorrected is null ? null : LatencySummary.From(uncorrected),
            };
        }
        finally
        {
            state.Stopping = true;
            schedule?.Stop();
            state.AbortNow();
            await loops.ContinueWith(static _ => { }, TaskScheduler.Default);
            foreach (var connection in connections)
            {
                connection.Dispose();
            }
        }
    }

    /// <summary>Waits until every connection is open (or the timeout), then divides the memory gained by the open count.</summary>
    private static async Task<(double Rss, double Managed, int Open)> MeasureIdleAsync(WebSocketRunState state, WebSocketLoadOptions options, long rssBefore, long managedBefore, CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(Math.Max(options.Timeout.TotalSeconds, 30) * Stopwatch.Frequency);
        while (Volatile.Read(ref state.Open) < options.Connections && Stopwatch.GetTimestamp() < deadline)
        {
            await Task.Delay(100, cancellationToken);
        }

        var open = Volatile.Read(ref state.Open);
        var (rss, managed) = Memory();
        return open == 0 ? (0, 0, 0) : ((rss - rssBefore) / (double)open, (managed - managedBefore) / (double)open, open);
    }

    private static (long Rss, long Managed) Memory()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        using var self = Process.GetCurrentProcess();
        return (self.WorkingSet64, GC.GetTotalMemory(forceFullCollection: true));
    }

    private static (long Completed, long Errors) Totals(WebSocketLoadConnection[] connections, WebSocketLoadMode mode)
    {
        long completed = 0, errors = 0;
        foreach (var connection in connections)
        {
            completed += mode == WebSocketLoadMode.Connect ? Volatile.Read(ref connection.Connects) : Volatile.Read(ref connection.Good);
            errors += Volatile.Read(ref connection.Errors) + Volatile.Read(ref connection.Bad);
        }

        return (completed, errors);
    }

    private static WebSocketLoadResult Aggregate(
        WebSocketLoadOptions options, WebSocketLoadConnection[] connections, LatencyHistogram roundTrips, LatencyHistogram connects, long windowStart, long windowEnd, IReadOnlyList<double> perSecond)
    {
        long sent = 0, good = 0, bad = 0, lost = 0, unfinished = 0, errors = 0, sessions = 0, handshakes = 0;
        foreach (var c in connections)
        {
            sent += c.Sent;
            good += c.Good;
            bad += c.Bad;
            lost += c.Lost;
            unfinished += c.Unfinished;
            errors += c.Errors;
            sessions += c.Connects;
            handshakes += c.Handshakes;
        }

        var elapsed = Stopwatch.GetElapsedTime(windowStart, windowEnd);
        return new WebSocketLoadResult
        {
            Url = options.Url.ToString(),
            Mode = options.Mode,
            Message = options.Message,
            Connections = options.Connections,
            ElapsedSeconds = elapsed.TotalSeconds,
            Sent = sent,
            Good = good,
            Bad = bad,
            Lost = lost,
            Unfinished = unfinished,
            Errors = errors,
            Connects = sessions,
            Handshakes = handshakes,
            RoundTrip = LatencySummary.From(roundTrips),
            Connect = LatencySummary.From(connects),
            ConnectP95 = connects.ValueAtPercentile(95) / 1_000_000.0,
            RoundTripP95 = roundTrips.ValueAtPercentile(95) / 1_000_000.0,
            PerSecond = perSecond,
            FirstError = connections.Select(c => c.FirstError).FirstOrDefault(e => e is not null),
        };
    }
}

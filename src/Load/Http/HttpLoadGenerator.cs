using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Http;

/// <summary>
/// The built-in HTTP/1.1 load generator: persistent connections, optional pipelining; closed loop,
/// or open model at a fixed rate (<see cref="HttpLoadOptions.Rate"/>).
/// </summary>
public static class HttpLoadGenerator
{
    private static readonly TimeSpan s_monitorInterval = TimeSpan.FromMilliseconds(50);

    public static async Task<LoadResult> RunAsync(HttpLoadOptions options, IProgress<LoadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var endPoint = await ResolveAsync(options.Url, cancellationToken);
        using var schedule = options.Rate is { } rate ? new OpenModel.ArrivalSchedule(rate) : null;
        var state = new LoadRunState(endPoint, HttpRequestBatch.Build(options), options.PipelineDepth, options.KeepAlive, schedule);
        var shards = NewShards(options.Threads);
        var uncorrected = schedule is null ? null : NewShards(options.Threads);
        var connections = new LoadConnection[options.Connections];
        for (var i = 0; i < connections.Length; i++)
        {
            connections[i] = new LoadConnection(state, shards[i % shards.Length], new HttpResponseParser(options.ValidatorFactory?.Invoke()), uncorrected?[i % uncorrected.Length]);
        }

        schedule?.Start();
        var loops = connections.Select(c => Task.Run(c.RunAsync, CancellationToken.None)).ToArray();
        var allLoops = Task.WhenAll(loops);
        using var monitorStop = new CancellationTokenSource();
        var monitor = MonitorTimeoutsAsync(connections, options.Timeout, monitorStop.Token);

        long WarmupCompleted() => connections.Sum(c => Volatile.Read(ref c.Counters.WarmupCompleted));
        var clock = new LoadClock(() => Totals(connections), progress, WarmupCompleted);
        var cpuAtStart = default(Statistics.ProcessCpu);
        try
        {
            var warmup = (Took: options.Warmup, Steady: (bool?)null);
            if (options.WarmupMax is { } maximum)
            {
                var (took, steady) = await clock.WarmUpAsync(options.Warmup, maximum, WarmupCompleted, options.WarmupGate, cancellationToken);
                warmup = (took, steady);
            }
            else
            {
                await clock.TickAsync(options.Warmup, measuring: false, cancellationToken);
            }

            cpuAtStart = Statistics.ProcessCpu.Now();
            state.Measuring = true;
            var windowStart = Stopwatch.GetTimestamp();
            clock.BeginWindow();
            var interrupted = await clock.RunWindowAsync(options.Duration, cancellationToken);

            state.Stopping = true;
            var windowEnd = Stopwatch.GetTimestamp();
            var open = schedule is null ? null : new OpenModel.OpenModelTally(schedule.DueBetween(windowStart, windowEnd), schedule.Backlog);
            schedule?.Stop();
            clock.EndWindow();

            // Let batches in flight finish (they are part of the window), up to one timeout.
            await Task.WhenAny(allLoops, Task.Delay(options.Timeout, CancellationToken.None));
            state.Aborted = true;
            foreach (var connection in connections)
            {
                connection.Abort();
            }

            await allLoops;
            var cpu = Statistics.ProcessCpu.Now().Since(cpuAtStart);
            // Open model: the achieved rate is what the window's schedule got answered over the window itself; a
            // stall at its end delays answers past it, which must not stretch the window and read as a shortfall.
            var result = Aggregate(options, connections, shards, windowStart, open is null ? null : windowEnd, clock.PerSecond, TimeSpan.FromSeconds(cpu.User), TimeSpan.FromSeconds(cpu.Kernel)) with { Interrupted = interrupted, CpuWindowSeconds = cpu.Seconds, WarmupSeconds = warmup.Took.TotalSeconds, WarmupSteady = warmup.Steady };
            return open is null ? result : result with
            {
                RequestedRate = options.Rate,
                Due = open.Due,
                Backlog = open.Backlog,
                Uncorrected = LatencySummary.From(Merge(uncorrected!)),
            };
        }
        finally
        {
            state.Stopping = true;
            schedule?.Stop();
            state.Aborted = true;
            foreach (var connection in connections)
            {
                connection.Abort();
            }

            await monitorStop.CancelAsync();
            await Task.WhenAll(allLoops.ContinueWith(static _ => { }, TaskScheduler.Default), monitor);
        }
    }

    private static LatencyHistogram[] NewShards(int count)
    {
        var shards = new LatencyHistogram[count];
        for (var i = 0; i < shards.Length; i++)
        {
            shards[i] = new LatencyHistogram();
        }

        return shards;
    }

    private static LatencyHistogram Merge(LatencyHistogram[] shards)
    {
        var merged = new LatencyHistogram();
        foreach (var shard in shards)
        {
            merged.Add(shard);
        }

        return merged;
    }

    private static (long Completed, long Errors) Totals(LoadConnection[] connections)
    {
        long completed = 0, errors = 0;
        foreach (var connection in connections)
        {
            completed += Volatile.Read(ref connection.Counters.Good) + Volatile.Read(ref connection.Counters.Bad);
            errors += Volatile.Read(ref connection.Counters.ConnectErrors) + Volatile.Read(ref connection.Counters.ReadErrors)
                + Volatile.Read(ref connection.Counters.WriteErrors) + Volatile.Read(ref connection.Counters.Timeouts);
        }

        return (completed, errors);
    }

    private static LoadResult Aggregate(
        HttpLoadOptions options, LoadConnection[] connections, LatencyHistogram[] shards, long windowStart, long? windowEnd,
        IReadOnlyList<double> perSecond, TimeSpan cpuUser, TimeSpan cpuKernel)
    {
        var total = default(ConnectionCounters);
        foreach (var connection in connections)
        {
            total.Add(connection.Counters);
        }

        var firstError = connections.Select(c => c.FirstError).FirstOrDefault(e => e is not null);
        var latency = Merge(shards);

        var elapsed = windowEnd is { } end ? Stopwatch.GetElapsedTime(windowStart, end)
            : total.LastResponseAt > windowStart ? Stopwatch.GetElapsedTime(windowStart, total.LastResponseAt) : options.Duration;
        return new LoadResult
        {
            Url = options.Url.ToString(),
            Connections = options.Connections,
            Threads = options.Threads,
            PipelineDepth = options.PipelineDepth,
            ElapsedSeconds = elapsed.TotalSeconds,
            Sent = total.Sent,
            Good = total.Good,
            Bad = total.Bad,
            Lost = total.Lost,
            Unfinished = total.Unfinished,
            Errors = new SocketErrors(total.ConnectErrors, total.ReadErrors, total.WriteErrors, total.Timeouts),
            BytesReceived = total.BytesReceived,
            Latency = LatencySummary.From(latency),
            KeepAlive = options.KeepAlive,
            Connects = total.Connects,
            Late = total.Late,
            Connect = options.KeepAlive || connections.Length == 0 ? null : LatencySummary.From(connections[0].State.ConnectTimes),
            FirstByte = options.KeepAlive || connections.Length == 0 ? null : LatencySummary.From(connections[0].State.FirstByteTimes),
            PerSecond = perSecond,
            CpuUserSeconds = cpuUser.TotalSeconds,
            CpuKernelSeconds = cpuKernel.TotalSeconds,
            FirstError = firstError,
        };
    }

    private static async Task MonitorTimeoutsAsync(LoadConnection[] connections, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var timeoutTicks = (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        using var timer = new PeriodicTimer(s_monitorInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                var now = Stopwatch.GetTimestamp();
                foreach (var connection in connections)
                {
                    connection.CheckTimeout(now, timeoutTicks);
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    internal static async Task<EndPoint> ResolveAsync(Uri url, CancellationToken cancellationToken)
    {
        if (IPAddress.TryParse(url.IdnHost, out var address))
        {
            return new IPEndPoint(address, url.Port);
        }

        try
        {
            var addresses = await Dns.GetHostAddressesAsync(url.IdnHost, cancellationToken);
            var chosen = addresses.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork) ?? addresses.FirstOrDefault()
                ?? throw new ArgumentException($"The host '{url.Host}' has no addresses.");
            return new IPEndPoint(chosen, url.Port);
        }
        catch (SocketException ex)
        {
            throw new ArgumentException($"Cannot resolve the host '{url.Host}': {ex.Message}", ex);
        }
    }
}

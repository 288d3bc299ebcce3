using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Load.Core;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Http;

/// <summary>
/// The built-in HTTP/1.1 load generator: persistent connections, optional pipelining; closed loop,
/// or open model at a fixed rate (<see cref="HttpLoadOptions.Rate"/>).
/// </summary>
public static class HttpLoadGenerator
{

    public static async Task<LoadResult> RunAsync(HttpLoadOptions options, IProgress<LoadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var endPoint = await ResolveAsync(options.Url, cancellationToken);
        using var schedule = options.Rate is { } rate ? new OpenModel.ArrivalSchedule(rate) : null;
        var state = new LoadRunState(endPoint, HttpRequestBatch.Build(options), options.PipelineDepth, options.KeepAlive, schedule);
        await using IHttpConnectionPool pool = OperatingSystem.IsLinux() && Epoll.EpollConnectionPool.Serves(options)
            ? new Epoll.EpollConnectionPool(options, state)
            : new SocketConnectionPool(options, state);
        schedule?.Start(pace: pool.ParksOnSchedule);
        pool.Start();
        var clock = new LoadClock(() => Totals(pool), progress, () => pool.Totals().WarmupCompleted);
        try
        {
            var warmup = (Took: options.Warmup, Steady: (bool?)null);
            if (options.WarmupMax is { } maximum)
            {
                var (took, steady) = await clock.WarmUpAsync(options.Warmup, maximum, () => pool.Totals().WarmupCompleted, options.WarmupGate, cancellationToken);
                warmup = (took, steady);
            }
            else
            {
                await clock.TickAsync(options.Warmup, measuring: false, cancellationToken);
            }

            long? backlogAtStart = null;
            if (schedule is not null)
            {
                var (took, backlog) = await OpenModel.BacklogDrain.WaitAsync(clock, schedule, warmup.Took, cancellationToken);
                warmup = (warmup.Took + took, warmup.Steady);
                backlogAtStart = backlog;
            }

            var cpuAtStart = Statistics.ProcessCpu.Now();
            state.Measuring = true;
            var waitingAtStart = pool.Waiting();
            var windowStart = Stopwatch.GetTimestamp();
            clock.BeginWindow();
            var interrupted = await clock.RunWindowAsync(options.Duration, cancellationToken);

            state.Stopping = true;
            var windowEnd = Stopwatch.GetTimestamp();
            var busy = ThreadsBusy(waitingAtStart, pool.Waiting(), windowEnd - windowStart);
            var open = schedule is null ? null : new OpenModel.OpenModelTally(schedule.DueBetween(windowStart, windowEnd), schedule.Backlog);
            schedule?.Stop();
            clock.EndWindow();

            // Let batches in flight finish (they are part of the window), up to one timeout.
            await Task.WhenAny(pool.Completion, Task.Delay(options.Timeout, CancellationToken.None));
            state.Aborted = true;
            pool.Abort();
            await pool.Completion;
            var cpu = Statistics.ProcessCpu.Now().Since(cpuAtStart);

            // The rate is the answers to the requests sent in the window over the window's own length, in both
            // models: answers in flight at its start (sent in the warm-up) are left out as those at its end are
            // taken in, and a stall at its end does not stretch the window (it read as a shortfall of the open model).
            var result = Aggregate(options, pool, windowStart, windowEnd, clock.PerSecond, TimeSpan.FromSeconds(cpu.User), TimeSpan.FromSeconds(cpu.Kernel))
                with { Interrupted = interrupted, ThreadsBusyPercent = busy, CpuWindowSeconds = cpu.Seconds, WarmupSeconds = warmup.Took.TotalSeconds, WarmupSteady = warmup.Steady };
            return open is null ? result : result with
            {
                RequestedRate = options.Rate,
                BacklogAtStart = backlogAtStart ?? 0,
                Due = open.Due,
                Backlog = open.Backlog,
                Uncorrected = pool.Uncorrected() is { } uncorrected ? LatencySummary.From(uncorrected) : null,
            };
        }
        finally
        {
            state.Stopping = true;
            schedule?.Stop();
            state.Aborted = true;
        }
    }

    /// <summary>The share of the window (%) the engine's threads were not waiting in epoll_wait, over all its threads; null where it cannot say.</summary>
    private static double? ThreadsBusy((long Ticks, int Threads)? atStart, (long Ticks, int Threads)? atEnd, long windowTicks) =>
        atStart is { } start && atEnd is { } end && windowTicks > 0 && end.Threads > 0
            ? Math.Clamp(100 * (1 - ((double)(end.Ticks - start.Ticks) / (windowTicks * end.Threads))), 0, 100)
            : null;

    private static (long Completed, long Errors) Totals(IHttpConnectionPool pool)
    {
        var total = pool.Totals();
        return (total.Good + total.Bad, total.Errors);
    }

    private static LoadResult Aggregate(
        HttpLoadOptions options, IHttpConnectionPool pool, long windowStart, long windowEnd,
        IReadOnlyList<double> perSecond, TimeSpan cpuUser, TimeSpan cpuKernel)
    {
        var total = pool.Totals();
        var connectTimes = (pool as SocketConnectionPool)?.State;
        var elapsed = Stopwatch.GetElapsedTime(windowStart, windowEnd);
        return new LoadResult
        {
            Url = options.Url.ToString(),
            Engine = pool.Engine,
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
            Latency = LatencySummary.From(pool.Latency()),
            KeepAlive = options.KeepAlive,
            Connects = total.Connects,
            Late = total.Late,
            LateByLoad = total.LateByLoad,
            Connect = options.KeepAlive || connectTimes is null ? null : LatencySummary.From(connectTimes.ConnectTimes),
            FirstByte = options.KeepAlive || connectTimes is null ? null : LatencySummary.From(connectTimes.FirstByteTimes),
            PerSecond = perSecond,
            CpuUserSeconds = cpuUser.TotalSeconds,
            CpuKernelSeconds = cpuKernel.TotalSeconds,
            FirstError = pool.FirstError,
        };
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

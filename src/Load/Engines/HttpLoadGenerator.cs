using Benchmarks.Load.Core;
using Benchmarks.Load.Engines.Epoll;
using Benchmarks.Load.Engines.IoUring;
using Benchmarks.Load.Engines.Sockets;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines;

/// <summary>
/// The built-in HTTP load generator: persistent connections, HTTP/1.1 with optional pipelining or
/// HTTP/2 with concurrent streams; closed loop, or open model at a fixed rate (<see cref="HttpLoadOptions.Rate"/>).
/// </summary>
public static class HttpLoadGenerator
{
    public static async Task<LoadResult> RunAsync(HttpLoadOptions options, IProgress<LoadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        if (options.Grpc is not null && !options.Http2)
        {
            throw new ArgumentException("gRPC runs over HTTP/2: the built-in load calls it with Http2 set (h2c or h2).");
        }

        var ioUring = IoUringChosen(options);
        var endPoint = await LoadTarget.ResolveAsync(options.Url, cancellationToken);
        using var schedule = options.Rate is { } rate ? new OpenModel.ArrivalSchedule(rate) : null;
        using var state = new LoadRunState(endPoint, HttpRequestBatch.Build(options), options.PipelineDepth, options.KeepAlive, schedule, Tls(options));
        await using IHttpConnectionPool pool = ioUring && OperatingSystem.IsLinux()
            ? new IoUringConnectionPool(options, state)
            : OperatingSystem.IsLinux() && EpollConnectionPool.Serves(options)
            ? new EpollConnectionPool(options, state)
            : new SocketConnectionPool(options, state);
        schedule?.Start(pace: pool.ParksOnSchedule);
        pool.Start();
        var driver = new HttpLoadDriver(pool, state);
        var phases = new LoadPhases(options.Warmup, options.Duration, options.Timeout) { WarmupMax = options.WarmupMax, WarmupGate = options.WarmupGate };
        var window = await LoadRun.RunAsync(driver, phases, schedule, progress, cancellationToken);

        // The rate is the answers to the requests sent in the window over the window's own length, in both
        // models: answers in flight at its start (sent in the warm-up) are left out as those at its end are
        // taken in, and a stall at its end does not stretch the window (it read as a shortfall of the open model).
        return LoadWindowResult.WithWindow(Aggregate(options, pool, state), window, options.Rate) with
        {
            ThreadsBusyPercent = driver.ThreadsBusyPercent,
            Uncorrected = pool.Uncorrected() is { } uncorrected ? LatencySummary.From(uncorrected) : null,
        };
    }

    /// <summary>
    /// Whether the io_uring engine was asked for (by the options or the engine variable); throws
    /// with its one-line reason when it cannot run them here.
    /// </summary>
    private static bool IoUringChosen(HttpLoadOptions options)
    {
        var chosen = options.Engine == HttpLoadEngine.IoUring
            || (options.Engine == HttpLoadEngine.Auto && Environment.GetEnvironmentVariable(HttpLoadEngines.Variable) == "iouring");
        return chosen && options.IoUringRefusal() is { } refusal ? throw new ArgumentException(refusal) : chosen;
    }

    /// <summary>The TLS every connection's handshake offers (<see cref="LoadTls"/>); null in cleartext.</summary>
    private static System.Net.Security.SslClientAuthenticationOptions? Tls(HttpLoadOptions options) =>
        options.Tls ? LoadTls.ClientOptions(options.Url, options.TlsResume, options.Http2) : null;

    /// <summary>The statuses gRPC's answers came with, by name, those that came only.</summary>
    private static SortedDictionary<string, long> GrpcStatuses(in ConnectionCounters total)
    {
        var statuses = new SortedDictionary<string, long>(StringComparer.Ordinal);
        for (var i = 0; i < Protocols.Grpc.GrpcStatus.Count; i++)
        {
            if (total.Grpc[i] > 0)
            {
                statuses[Protocols.Grpc.GrpcStatus.Names[i]] = total.Grpc[i];
            }
        }

        return statuses;
    }

    private static LoadResult Aggregate(HttpLoadOptions options, IHttpConnectionPool pool, LoadRunState state)
    {
        var total = pool.Totals();
        return new LoadResult
        {
            Url = options.Url.ToString(),
            Engine = pool.Engine,
            Connections = options.Connections,
            Threads = options.Threads,
            PipelineDepth = options.PipelineDepth,
            Http2 = options.Http2,
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
            Connect = options.KeepAlive ? null : LatencySummary.From(state.ConnectTimes),
            FirstByte = options.KeepAlive ? null : LatencySummary.From(state.FirstByteTimes),
            FirstError = pool.FirstError,
            Handshakes = total.Handshakes,
            HandshakeErrors = total.HandshakeErrors,
            Handshake = total.Handshakes > 0 ? LatencySummary.From(state.HandshakeTimes) : null,
            Tls = state.Negotiated,
            GrpcStatuses = options.Grpc is null ? null : GrpcStatuses(total),
            GrpcCall = options.Grpc is { } call ? Protocols.Grpc.GrpcCall.NameOf(call.Kind) : null,
            GrpcMessagesPerCall = options.Grpc?.Messages ?? 1,
            FlowControlWaitSeconds = options.Http2 ? (double)total.WindowWaitTicks / System.Diagnostics.Stopwatch.Frequency : null,
        };
    }
}

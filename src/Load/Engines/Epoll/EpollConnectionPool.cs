using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Load.Core;
using Benchmarks.Load.Engines.Native;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Protocols.Http2;
using Benchmarks.Load.Statistics;
using Benchmarks.Load.Transports;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// The Linux engine of connections with keep-alive (closed loop, pipelined or not, and the open
/// model), cleartext or over TLS through the system's OpenSSL: <c>--threads</c> threads, each with
/// its own epoll instance, connections and histograms, as wrk's threads are. Connections without
/// keep-alive use the portable engine.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class EpollConnectionPool : IHttpConnectionPool
{
    private readonly LoadRunState _state;
    private readonly EpollWorker[] _workers;

    /// <summary>The OpenSSL context every worker's TLS connections share; null in cleartext.</summary>
    private readonly OpenSslClient? _tls;

    public EpollConnectionPool(HttpLoadOptions options, LoadRunState state)
    {
        ArgumentNullException.ThrowIfNull(options);
        _state = state;
        var address = SocketAddressBytes.For(state.EndPoint);
        var timeoutTicks = (long)(options.Timeout.TotalSeconds * Stopwatch.Frequency);
        var threads = Math.Min(options.Threads, options.Connections);
        _tls = options.Tls ? new OpenSslClient(options.Url, options.Http2, options.TlsResume) : null;
        _workers = new EpollWorker[threads];
        for (var t = 0; t < threads; t++)
        {
            // Connections dealt round the threads, as wrk deals them.
            var count = (options.Connections / threads) + (t < options.Connections % threads ? 1 : 0);
            var connections = new EpollConnection[count];
            var request = options.Http2 ? Protocols.Http2.Http2RequestBlock.Build(options) : null;
            for (var i = 0; i < count; i++)
            {
                var validator = options.ValidatorFactory?.Invoke();
                connections[i] = new EpollConnection(i)
                {
                    Parser = new HttpResponseParser(validator),
                    Http2 = request is null ? null : new Http2Session(request, options.PipelineDepth, validator),
                };
            }

            _workers[t] = new EpollWorker(t, state, connections, address, timeoutTicks, _tls);
        }
    }

    public string Engine => "epoll";

    public bool ParksOnSchedule => false;

    public Task Completion => Task.WhenAll(_workers.Select(w => w.Completion));

    public string? FirstError => _workers.SelectMany(w => w.Connections).Select(c => c.FirstError).FirstOrDefault(e => e is not null);

    /// <summary>Whether this engine serves <paramref name="options"/> here: Linux, keep-alive, cleartext or with the system's OpenSSL for TLS, not turned off.</summary>
    public static bool Serves(HttpLoadOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.Engine == HttpLoadEngine.Epoll
            || (options.Engine == HttpLoadEngine.Auto && options.KeepAlive && (!options.Tls || OpenSslNative.Available)
                && Environment.GetEnvironmentVariable(HttpLoadEngines.Variable) is not ("sockets" or "iouring"));
    }

    public void Start()
    {
        foreach (var worker in _workers)
        {
            worker.Start();
        }
    }

    public ConnectionCounters Totals() => EngineTotals.Sum(_workers.SelectMany(w => w.Connections));

    public void Abort() => _state.AbortNow();

    public LatencyHistogram Latency() => EngineTotals.Merge(_workers.Select(w => w.Histogram));

    public (long Ticks, int Threads)? Waiting() => (_workers.Sum(w => w.WaitingTicks), _workers.Length);

    public LatencyHistogram? Uncorrected() => _state.Schedule is null ? null : EngineTotals.Merge(_workers.Select(w => w.Uncorrected!));

    public async ValueTask DisposeAsync()
    {
        Abort();
        await Completion.ContinueWith(static _ => { }, TaskScheduler.Default);
        _tls?.Dispose();
    }
}

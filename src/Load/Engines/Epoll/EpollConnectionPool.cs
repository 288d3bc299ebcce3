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
internal sealed class EpollConnectionPool : NativeConnectionPool<EpollWorker, EpollConnection>
{
    private readonly LoadRunState _state;

    /// <summary>The OpenSSL context every worker's TLS connections share; null in cleartext.</summary>
    private readonly OpenSslClient? _tls;

    public EpollConnectionPool(HttpLoadOptions options, LoadRunState state)
        : this(options, state,
            (options ?? throw new ArgumentNullException(nameof(options))).Tls ? new OpenSslClient(options.Url, options.Http2, options.TlsResume) : null)
    {
    }

    private EpollConnectionPool(HttpLoadOptions options, LoadRunState state, OpenSslClient? tls)
        : base(options, state, (t, count, address, timeoutTicks) => new EpollWorker(t, state, Connections(options, count), address, timeoutTicks, tls))
    {
        _state = state;
        _tls = tls;
    }

    public override string Engine => "epoll";

    /// <summary>
    /// Whether this engine serves <paramref name="options"/> here: Linux, keep-alive, cleartext or
    /// with the system's OpenSSL for TLS, not turned off.
    /// </summary>
    public static bool Serves(HttpLoadOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.Engine == HttpLoadEngine.Epoll
            || (options.Engine == HttpLoadEngine.Auto && options.KeepAlive && (!options.Tls || OpenSslNative.Available)
                && Environment.GetEnvironmentVariable(HttpLoadEngines.Variable) is not ("sockets" or "iouring"));
    }

    public override (long Ticks, int Threads)? Waiting() => (Workers.Sum(w => w.WaitingTicks), Workers.Count);

    public override LatencyHistogram? Uncorrected() => _state.Schedule is null ? null : Merge(Workers.Select(w => w.Uncorrected!));

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        _tls?.Dispose();
    }

    private static EpollConnection[] Connections(HttpLoadOptions options, int count)
    {
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

        return connections;
    }
}

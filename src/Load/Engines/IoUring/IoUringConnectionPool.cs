using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Load.Core;
using Benchmarks.Load.Engines.Native;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.IoUring;

/// <summary>
/// The io_uring engine: <c>--threads</c> threads, each with its own ring, connections and
/// histogram, as the epoll engine's are; cleartext HTTP/1.1 with keep-alive in the closed loop,
/// pipelined or not. Chosen with <c>--load-engine iouring</c> (or <c>BENCHMARKS_HTTP_ENGINE=iouring</c>);
/// what it cannot run is refused before it starts (<see cref="HttpLoadOptions.IoUringRefusal"/>).
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class IoUringConnectionPool : IHttpConnectionPool
{
    private readonly LoadRunState _state;
    private readonly IoUringLoadWorker[] _workers;

    public IoUringConnectionPool(HttpLoadOptions options, LoadRunState state)
    {
        ArgumentNullException.ThrowIfNull(options);
        _state = state;
        var address = SocketAddressBytes.For(state.EndPoint);
        var timeoutTicks = (long)(options.Timeout.TotalSeconds * Stopwatch.Frequency);
        var threads = Math.Min(options.Threads, options.Connections);
        _workers = new IoUringLoadWorker[threads];
        for (var t = 0; t < threads; t++)
        {
            var count = (options.Connections / threads) + (t < options.Connections % threads ? 1 : 0);
            var connections = new IoUringLoadConnection[count];
            for (var i = 0; i < count; i++)
            {
                connections[i] = new IoUringLoadConnection(i) { Parser = new HttpResponseParser(options.ValidatorFactory?.Invoke()) };
            }

            _workers[t] = new IoUringLoadWorker(t, state, connections, address, timeoutTicks);
        }
    }

    public string Engine => "io_uring";

    public bool ParksOnSchedule => false;

    public Task Completion => Task.WhenAll(_workers.Select(w => w.Completion));

    public string? FirstError => _workers.SelectMany(w => w.Connections).Select(c => c.FirstError).FirstOrDefault(e => e is not null);

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

    public LatencyHistogram? Uncorrected() => null;

    /// <summary>Not known: the kernel runs the turn's sends inside the same io_uring_enter that waits, so the time in it is not idle time.</summary>
    public (long Ticks, int Threads)? Waiting() => null;

    public async ValueTask DisposeAsync()
    {
        Abort();
        await Completion.ContinueWith(static _ => { }, TaskScheduler.Default);
    }
}

using System.Diagnostics;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Native;

/// <summary>
/// What the native engines' pools (epoll, io_uring) share: <c>--threads</c> workers, at most one per
/// connection, with the connections dealt round them as wrk deals them; the counts and latencies
/// added up over the workers while they run; and the hard stop. Each engine says how a worker is
/// made, and what only it can report (the latencies from the send, the time its threads waited).
/// </summary>
internal abstract class NativeConnectionPool<TWorker, TConnection> : IHttpConnectionPool
    where TWorker : NativeWorker<TConnection>
    where TConnection : NativeConnection
{
    private readonly LoadRunState _state;

    /// <param name="worker">Makes thread <c>t</c>'s worker for <c>count</c> connections, given the server's address and the timeout in Stopwatch ticks.</param>
    protected NativeConnectionPool(HttpLoadOptions options, LoadRunState state, Func<int, int, SocketAddressBytes, long, TWorker> worker)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(state);
        ArgumentNullException.ThrowIfNull(worker);
        _state = state;
        var address = SocketAddressBytes.For(state.EndPoint);
        var timeoutTicks = (long)(options.Timeout.TotalSeconds * Stopwatch.Frequency);
        var threads = Math.Min(options.Threads, options.Connections);
        var workers = new TWorker[threads];
        for (var t = 0; t < threads; t++)
        {
            var count = (options.Connections / threads) + (t < options.Connections % threads ? 1 : 0);
            workers[t] = worker(t, count, address, timeoutTicks);
        }

        Workers = workers;
    }

    public abstract string Engine { get; }

    public bool ParksOnSchedule => false;

    protected IReadOnlyList<TWorker> Workers { get; }

    public Task Completion => Task.WhenAll(Workers.Select(w => w.Completion));

    public string? FirstError => Workers.SelectMany(w => w.Connections).Select(c => c.FirstError).FirstOrDefault(e => e is not null);

    public void Start()
    {
        foreach (var worker in Workers)
        {
            worker.Start();
        }
    }

    /// <summary>The counts so far over every worker's connections; the warm-up's completions read as another thread writes them.</summary>
    public ConnectionCounters Totals()
    {
        var total = default(ConnectionCounters);
        foreach (var connection in Workers.SelectMany(w => w.Connections))
        {
            ref var own = ref connection.Counters;
            total.Add(own);
            total.WarmupCompleted += Volatile.Read(ref own.WarmupCompleted);
        }

        return total;
    }

    public void Abort() => _state.AbortNow();

    public LatencyHistogram Latency() => Merge(Workers.Select(w => w.Histogram));

    public abstract LatencyHistogram? Uncorrected();

    public abstract (long Ticks, int Threads)? Waiting();

    public virtual async ValueTask DisposeAsync()
    {
        Abort();
        await Completion.ContinueWith(static _ => { }, TaskScheduler.Default);
    }

    /// <summary>One histogram of all of <paramref name="histograms"/>.</summary>
    protected static LatencyHistogram Merge(IEnumerable<LatencyHistogram> histograms)
    {
        var merged = new LatencyHistogram();
        foreach (var histogram in histograms)
        {
            merged.Add(histogram);
        }

        return merged;
    }
}

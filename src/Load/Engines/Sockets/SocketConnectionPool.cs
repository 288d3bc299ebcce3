using System.Diagnostics;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Protocols.Http2;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Sockets;

/// <summary>
/// The portable engine: a connection loop per connection, each async on System.Net.Sockets (the
/// thread pool runs them) — HTTP/1.1's <see cref="LoadConnection"/> or HTTP/2's
/// <see cref="Http2LoadConnection"/> — histograms sharded by <c>--threads</c>, and a monitor that
/// drops connections waiting past the timeout. Every mode: open model, no keep-alive, TLS.
/// </summary>
internal sealed class SocketConnectionPool : IHttpConnectionPool
{
    private static readonly TimeSpan s_monitorInterval = TimeSpan.FromMilliseconds(50);

    private readonly HttpLoadOptions _options;
    private readonly IHttpLoadConnection[] _connections;
    private readonly LoadRunState _state;
    private readonly LatencyHistogram[] _shards;
    private readonly LatencyHistogram[]? _uncorrected;
    private readonly CancellationTokenSource _monitorStop = new();
    private Task _loops = Task.CompletedTask;
    private Task _monitor = Task.CompletedTask;

    public SocketConnectionPool(HttpLoadOptions options, LoadRunState state)
    {
        _options = options;
        _state = state;
        _shards = NewShards(options.Threads);
        _uncorrected = state.Schedule is null ? null : NewShards(options.Threads);
        _connections = new IHttpLoadConnection[options.Connections];
        var request = options.Http2 ? Protocols.Http2.Http2RequestBlock.Build(options) : null;
        for (var i = 0; i < _connections.Length; i++)
        {
            var (shard, uncorrected) = (_shards[i % _shards.Length], _uncorrected?[i % _uncorrected.Length]);
            _connections[i] = request is null
                ? new LoadConnection(state, shard, new HttpResponseParser(options.ValidatorFactory?.Invoke()), uncorrected)
                : new Http2LoadConnection(state, shard, new Http2Session(request, options.PipelineDepth, options.ValidatorFactory?.Invoke()), uncorrected);
        }
    }

    public string Engine => "sockets";

    public Task Completion => _loops;

    public string? FirstError => _connections.Select(c => c.FirstError).FirstOrDefault(e => e is not null);

    public void Start()
    {
        _loops = Task.WhenAll(_connections.Select(c => Task.Run(c.RunAsync, CancellationToken.None)));
        _monitor = MonitorTimeoutsAsync(_connections, _options.Timeout, _monitorStop.Token);
    }

    public ConnectionCounters Totals()
    {
        var total = default(ConnectionCounters);
        foreach (var connection in _connections)
        {
            total.Add(connection.Counters);
            total.WarmupCompleted += Volatile.Read(ref connection.Counters.WarmupCompleted);
        }

        return total;
    }

    public void Abort()
    {
        foreach (var connection in _connections)
        {
            connection.Abort();
        }
    }

    public bool ParksOnSchedule => true;

    public LatencyHistogram Latency() => Merge(_shards);

    public (long Ticks, int Threads)? Waiting() => null;

    public LatencyHistogram? Uncorrected() => _uncorrected is null ? null : Merge(_uncorrected);

    public async ValueTask DisposeAsync()
    {
        Abort();
        await _monitorStop.CancelAsync();
        await Task.WhenAll(_loops.ContinueWith(static _ => { }, TaskScheduler.Default), _monitor);
        _monitorStop.Dispose();
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

    private static async Task MonitorTimeoutsAsync(IHttpLoadConnection[] connections, TimeSpan timeout, CancellationToken cancellationToken)
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
}

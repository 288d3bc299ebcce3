using System.Diagnostics;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Http;

/// <summary>
/// The portable engine: a <see cref="LoadConnection"/> per connection, each an async loop on
/// System.Net.Sockets (the thread pool runs them), histograms sharded by <c>--threads</c>, and a
/// monitor that drops connections waiting past the timeout. Every mode: open model, no keep-alive.
/// </summary>
internal sealed class SocketConnectionPool : IHttpConnectionPool
{
    private static readonly TimeSpan s_monitorInterval = TimeSpan.FromMilliseconds(50);

    private readonly HttpLoadOptions _options;
    private readonly LoadConnection[] _connections;
    private readonly LatencyHistogram[] _shards;
    private readonly LatencyHistogram[]? _uncorrected;
    private readonly CancellationTokenSource _monitorStop = new();
    private Task _loops = Task.CompletedTask;
    private Task _monitor = Task.CompletedTask;

    public SocketConnectionPool(HttpLoadOptions options, LoadRunState state)
    {
        _options = options;
        _shards = NewShards(options.Threads);
        _uncorrected = state.Schedule is null ? null : NewShards(options.Threads);
        _connections = new LoadConnection[options.Connections];
        for (var i = 0; i < _connections.Length; i++)
        {
            _connections[i] = new LoadConnection(state, _shards[i % _shards.Length], new HttpResponseParser(options.ValidatorFactory?.Invoke()), _uncorrected?[i % _uncorrected.Length]);
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

    /// <summary>Without keep-alive: connect times (from the shared state).</summary>
    public LoadRunState State => _connections[0].State;

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
}

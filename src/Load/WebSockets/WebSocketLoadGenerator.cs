using Benchmarks.Load.Core;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.WebSockets;

/// <summary>The built-in WebSocket load generator: echo (sync or async) and connection rate, every reply validated.</summary>
public static class WebSocketLoadGenerator
{
    public static async Task<WebSocketLoadResult> RunAsync(WebSocketLoadOptions options, IProgress<LoadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var endPoint = await LoadTarget.ResolveAsync(options.Url, cancellationToken);
        using var schedule = options.Rate is { } rate ? new OpenModel.ArrivalSchedule(rate) : null;
        using var state = new WebSocketRunState { Schedule = schedule };
        var timers = LoadTimers.For(schedule);
        var connections = new WebSocketLoadConnection[options.Connections];
        for (var i = 0; i < connections.Length; i++)
        {
            connections[i] = new WebSocketLoadConnection(options, state, LoadEndPoint.For(endPoint, options.LocalAddresses, i), timers, seed: (i * 7919) + 1);
        }

        var memoryBefore = WebSocketLoadDriver.Now();
        if (options.Mode == WebSocketLoadMode.Idle)
        {
            state.Measuring = true;
        }

        schedule?.Start();
        var loops = Task.WhenAll(connections.Select(c => Task.Run(c.RunAsync, CancellationToken.None)));
        try
        {
            var driver = new WebSocketLoadDriver(options, connections, state, loops, memoryBefore);
            var window = await LoadRun.RunAsync(driver, new LoadPhases(options.Warmup, options.Duration, options.Timeout), schedule, progress,
                cancellationToken);

            // The rate is taken over the window's own length (as the HTTP load's), not stretched by echoes held past its end.
            return LoadWindowResult.WithWindow(Aggregate(options, connections, timers), window, options.Rate) with
            {
                MemoryPerConnection = driver.Memory.Rss,
                ManagedMemoryPerConnection = driver.Memory.Managed,
                OpenConnections = driver.Memory.Open,
                Late = connections.Sum(c => c.Late),
                LateByLoad = connections.Sum(c => c.LateByLoad),
                Uncorrected = timers.UncorrectedSummary(),
            };
        }
        finally
        {
            foreach (var connection in connections)
            {
                connection.Dispose();
            }
        }
    }

    private static WebSocketLoadResult Aggregate(
        WebSocketLoadOptions options, WebSocketLoadConnection[] connections, LoadTimers timers)
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

        return new WebSocketLoadResult
        {
            Url = options.Url.ToString(),
            Mode = options.Mode,
            Message = options.Message,
            Connections = options.Connections,
            Sent = sent,
            Good = good,
            Bad = bad,
            Lost = lost,
            Unfinished = unfinished,
            Errors = errors,
            Connects = sessions,
            Handshakes = handshakes,
            RoundTrip = LatencySummary.From(timers.RoundTrips),
            Connect = LatencySummary.From(timers.Connects),
            ConnectP95 = timers.Connects.ValueAtPercentile(95) / 1_000_000.0,
            RoundTripP95 = timers.RoundTrips.ValueAtPercentile(95) / 1_000_000.0,
            FirstError = connections.Select(c => c.FirstError).FirstOrDefault(e => e is not null),
        };
    }
}

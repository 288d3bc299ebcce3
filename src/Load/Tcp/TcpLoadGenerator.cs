using System.Diagnostics;
using Benchmarks.Load.Core;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Tcp;

/// <summary>
/// The built-in TCP load generator: persistent connections keeping a window of requests in flight,
/// or churn (a connection per request); the requests and their answers are the built-in echo's
/// (fixed-size messages checked byte for byte) or a scenario's protocol. Failures are counted by
/// cause; a watchdog ends connects and answers that outlast the timeout. With a rate (the open
/// model) each persistent connection sends one request at a time, at its due time.
/// </summary>
public static class TcpLoadGenerator
{
    public static async Task<TcpLoadResult> RunAsync(TcpLoadOptions options, IProgress<LoadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var endPoint = await LoadTarget.ResolveAsync(new Uri($"http://{options.Url.Authority}/"), cancellationToken);
        using var schedule = options.Rate is { } rate ? new OpenModel.ArrivalSchedule(rate) : null;
        using var state = new TcpRunState { Schedule = schedule };
        var timers = LoadTimers.For(schedule);
        var clients = Clients(options);
        var connections = new TcpLoadConnection[options.Connections];
        for (var i = 0; i < connections.Length; i++)
        {
            connections[i] = new TcpLoadConnection(options, state, LoadEndPoint.For(endPoint, options.LocalAddresses, i), timers, clients[i]);
        }

        schedule?.Start();
        var loops = Task.WhenAll(connections.Select(c => Task.Run(c.RunAsync, CancellationToken.None)));
        using var watchdogStop = new CancellationTokenSource();
        var watchdog = WatchAsync(connections, options.Timeout, watchdogStop.Token);
        try
        {
            var driver = new TcpLoadDriver(connections, state, loops);
            var window = await LoadRun.RunAsync(driver, new LoadPhases(options.Warmup, options.Duration, options.Timeout), schedule, progress,
                cancellationToken);
            return LoadWindowResult.WithWindow(Aggregate(options, clients[0], connections, timers), window, options.Rate) with
            {
                Late = connections.Sum(c => c.Counters.Late),
                LateByLoad = connections.Sum(c => c.Counters.LateByLoad),
                Uncorrected = timers.UncorrectedSummary(),
            };
        }
        finally
        {
            await watchdogStop.CancelAsync();
            await watchdog;
            foreach (var connection in connections)
            {
                connection.Dispose();
            }
        }
    }

    private static async Task WatchAsync(TcpLoadConnection[] connections, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var ticks = (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(100));
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                var now = Stopwatch.GetTimestamp();
                foreach (var connection in connections)
                {
                    connection.CheckTimeout(now, ticks);
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    /// <summary>One client per connection: the scenario's (its largest request checked like an echo message's size), else the echo.</summary>
    private static ITcpExchange[] Clients(TcpLoadOptions options)
    {
        var clients = new ITcpExchange[options.Connections];
        for (var i = 0; i < clients.Length; i++)
        {
            var client = options.Scenario?.CreateLoadClient(i);
            if (client is not null)
            {
                options.ValidateRequestSize(client.MaxRequestSize, $"{options.Scenario!.Name}'s request size");
            }

            clients[i] = client ?? new EchoExchange(options.MessageSize, seed: (i * 7919) + 1);
        }

        return clients;
    }

    private static TcpLoadResult Aggregate(TcpLoadOptions options, ITcpExchange client, TcpLoadConnection[] connections, LoadTimers timers)
    {
        var causes = Enum.GetValues<TcpFailure>();
        var failed = causes.ToDictionary(c => TcpFailureCauses.Name(c), c => connections.Sum(x => x.Counters.Failed[(int)c]));
        var connectFailed = causes.ToDictionary(c => TcpFailureCauses.Name(c), c => connections.Sum(x => x.Counters.ConnectFailed[(int)c]));
        return new TcpLoadResult
        {
            Url = options.Url.ToString(),
            Protocol = client is EchoExchange ? TcpLoadResult.Echo : options.Scenario!.Name,
            Mode = options.Mode,
            Connections = options.Connections,
            MessageSize = client.MaxRequestSize,
            Window = options.Window,
            LingerZero = options.LingerZero,
            Sent = connections.Sum(c => c.Counters.Sent),
            Answered = connections.Sum(c => c.Counters.Answered),
            Unfinished = connections.Sum(c => c.Counters.Unfinished),
            Connects = connections.Sum(c => c.Counters.Connects),
            Failed = failed,
            ConnectFailed = connectFailed,
            RoundTrip = LatencySummary.From(timers.RoundTrips),
            Connect = LatencySummary.From(timers.Connects),
            FirstError = connections.Select(c => c.FirstError).FirstOrDefault(e => e is not null),
        };
    }
}

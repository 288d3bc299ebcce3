using Benchmarks.Load.Http;

namespace Benchmarks.Load.WebSockets;

/// <summary>
/// websocket-shootout's broadcast loop: connect the initial clients; per step keep <c>concurrent</c>
/// broadcasts in flight from random clients until <c>sample size</c> RTTs are in; stop when the chosen
/// percentile passes the limit (or after the given steps), else add <c>step size</c> clients. At the
/// end every client's broadcasts must add up to Σ(clients × sample size).
/// </summary>
public static class BroadcastLoadGenerator
{
    public static async Task<BroadcastResult> RunAsync(BroadcastOptions options, Action<BroadcastStep>? onStep, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var endPoint = await Core.LoadTarget.ResolveAsync(options.Url, cancellationToken);
        var clients = new List<BroadcastClient>();
        var steps = new List<BroadcastStep>();
        long expected = 0;
        var best = 0;
        string? firstError = null;
        long errors = 0;
        try
        {
            await AddClientsAsync(clients, options.InitialClients, endPoint, options, cancellationToken);
            for (var step = 1; options.TotalSteps == 0 || step <= options.TotalSteps; step++)
            {
                var rtts = await SampleAsync(clients, options, cancellationToken);
                expected += (long)clients.Count * options.SampleSize;
                rtts.Sort();
                var result = new BroadcastStep(
                    clients.Count,
                    NearestRank(rtts, options.LimitPercentile),
                    rtts[0] / 1e6,
                    NearestRank(rtts, 50),
                    rtts[^1] / 1e6);
                steps.Add(result);
                onStep?.Invoke(result);
                if (result.PercentileRtt > options.LimitRtt.TotalMilliseconds)
                {
                    break;
                }

                best = clients.Count;
                if (options.TotalSteps != 0 && step == options.TotalSteps)
                {
                    break;
                }

                await AddClientsAsync(clients, options.StepSize, endPoint, options, cancellationToken);
            }

            // broadcastResult is sent after the fan-out: give the last broadcasts a moment to land.
            for (var i = 0; i < 50 && clients.Sum(c => c.Received) < expected; i++)
            {
                await Task.Delay(100, cancellationToken);
            }
        }
        catch (Exception ex) when (ex is System.Net.WebSockets.WebSocketException or System.Net.Sockets.SocketException or IOException or TimeoutException
            or InvalidDataException)
        {
            // Any client error aborts the run, as websocket-shootout does.
            errors++;
            firstError = ex.Message;
        }

        var failed = clients.FirstOrDefault(c => c.Failure is not null)?.Failure;
        if (failed is not null)
        {
            errors++;
            firstError ??= failed.Message;
        }

        var received = clients.Sum(c => c.Received);
        foreach (var client in clients)
        {
            await client.DisposeAsync();
        }

        return new BroadcastResult
        {
            Steps = steps,
            LimitPercentile = options.LimitPercentile,
            MaxClientsUnderLimit = best,
            ExpectedBroadcasts = expected,
            ReceivedBroadcasts = received,
            Errors = errors,
            FirstError = firstError,
        };
    }

    public static string Format(BroadcastStep step, double percentile) => string.Create(System.Globalization.CultureInfo.InvariantCulture,
        $"clients: {step.Clients,6}    {percentile:0.#}per-rtt: {step.PercentileRtt,5:0}ms    min-rtt: {step.MinRtt,5:0}ms    median-rtt: " +
        $"{step.MedianRtt,5:0}ms    max-rtt: {step.MaxRtt,5:0}ms");

    private static async Task AddClientsAsync(List<BroadcastClient> clients, int count, System.Net.EndPoint endPoint, BroadcastOptions options,
        CancellationToken cancellationToken)
    {
        for (var added = 0; added < count; added += 100)
        {
            var batch = Enumerable.Range(clients.Count, Math.Min(100, count - added))
                .Select(i => BroadcastClient.ConnectAsync(endPoint, options,
                    options.LocalAddresses.Count > 0 ? options.LocalAddresses[i % options.LocalAddresses.Count] : null, cancellationToken));
            clients.AddRange(await Task.WhenAll(batch));
        }
    }

    private static async Task<List<long>> SampleAsync(List<BroadcastClient> clients, BroadcastOptions options, CancellationToken cancellationToken)
    {
        var rtts = new List<long>(options.SampleSize);
        var started = 0;
        var busy = new HashSet<BroadcastClient>();
        var gate = new Lock();
        async Task WorkerAsync()
        {
            while (true)
            {
                BroadcastClient client;
                lock (gate)
                {
                    if (started == options.SampleSize)
                    {
                        return;
                    }

                    started++;
                    var free = clients.Where(c => !busy.Contains(c)).ToList();
                    client = free[Random.Shared.Next(free.Count)];
                    busy.Add(client);
                }

                var rtt = await client.BroadcastAsync(cancellationToken);
                lock (gate)
                {
                    busy.Remove(client);
                    rtts.Add(rtt);
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, Math.Min(options.Concurrent, clients.Count)).Select(_ => WorkerAsync()));
        return rtts;
    }

    private static double NearestRank(List<long> sorted, double percentile) =>
        sorted[Math.Clamp((int)Math.Ceiling(percentile / 100 * sorted.Count) - 1, 0, sorted.Count - 1)] / 1e6;
}

namespace Benchmarks.Tests.Support;

/// <summary>crank's keep-alive: <c>GET /jobs/{id}/touch</c> every 2 s for each job, from its creation until crank stops it.</summary>
internal sealed class KeepAlives(HttpClient http) : IDisposable
{
    private readonly Dictionary<int, CancellationTokenSource> _running = [];

    /// <summary>Starts touching the agent's job <paramref name="id"/>, known to the transcript as <paramref name="recorded"/>.</summary>
    public void Start(int recorded, int id)
    {
        var source = new CancellationTokenSource();
        _running[recorded] = source;
        _ = Task.Run(async () =>
        {
            try
            {
                while (!source.Token.IsCancellationRequested)
                {
                    await Task.Delay(2000, source.Token);
                    using var response = await http.GetAsync($"/jobs/{id}/touch", source.Token);
                }
            }
            catch (Exception ex) when (ex is OperationCanceledException or HttpRequestException or ObjectDisposedException)
            {
            }
        });
    }

    public void Stop(int recorded)
    {
        if (_running.TryGetValue(recorded, out var source))
        {
            source.Cancel();
        }
    }

    public void StopAll()
    {
        foreach (var source in _running.Values)
        {
            source.Cancel();
        }
    }

    public void Dispose()
    {
        StopAll();
        foreach (var source in _running.Values)
        {
            source.Dispose();
        }
    }
}

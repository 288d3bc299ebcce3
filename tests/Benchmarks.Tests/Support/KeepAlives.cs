namespace Benchmarks.Tests.Support;

/// <summary>
/// crank's keep-alive: <c>GET /jobs/{id}/touch</c> every 2 s for each job, from its creation until crank stops it. A touch
/// that fails (an agent slow to answer on a busy machine) is logged and the next one follows, as crank's loop goes on.
/// </summary>
internal sealed class KeepAlives(HttpClient http, Action<string> log) : IDisposable
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
                    try
                    {
                        using var response = await http.GetAsync($"/jobs/{id}/touch", source.Token);
                    }
                    catch (HttpRequestException ex)
                    {
                        log($"touch of job {id} failed: {ex.Message}");
                    }
                }
            }
            catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException)
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

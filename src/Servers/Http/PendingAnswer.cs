namespace Benchmarks.Servers.Http;

/// <summary>
/// The wait of a request whose scenario waits (a database), off an event loop's thread (libuv,
/// io_uring); its end is posted back to the connection's loop, which writes the answer.
/// </summary>
public static class PendingAnswer
{
    public static async Task WaitAsync<TConnection>(HttpRequestProcessor processor, IResumeTarget<TConnection> loop, TConnection connection)
    {
        ArgumentNullException.ThrowIfNull(processor);
        ArgumentNullException.ThrowIfNull(loop);

        // Leave the loop thread before the scenario runs: the loop keeps serving its other connections.
        await Task.Yield();
        await processor.CompletePendingAsync(CancellationToken.None);
        loop.Post(connection);
    }
}

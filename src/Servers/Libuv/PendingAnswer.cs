using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.Libuv;

/// <summary>The wait of a request whose scenario waits (a database), off the loop thread; its end is posted back to the connection's loop.</summary>
internal static class PendingAnswer
{
    public static async Task WaitAsync(HttpRequestProcessor processor, LibuvLoop loop, LibuvConnection connection)
    {
        // Leave the loop thread before the scenario runs: the loop keeps serving its other connections.
        await Task.Yield();
        await processor.CompletePendingAsync(CancellationToken.None);
        loop.Post(connection);
    }
}

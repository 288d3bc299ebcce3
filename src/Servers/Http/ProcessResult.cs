namespace Benchmarks.Servers.Http;

/// <summary>What one pass of <see cref="HttpRequestProcessor.Process"/> did.</summary>
/// <param name="Responses">Responses written to the output.</param>
/// <param name="Close">Close the connection once they are sent.</param>
/// <param name="WebSocketRoute">The route upgraded to a WebSocket (101 written), or -1.</param>
/// <param name="Pending">
/// A request for a scenario that waits was read and not yet answered: the caller awaits
/// <see cref="HttpRequestProcessor.CompletePendingAsync"/> without blocking its loop, writes the
/// answer with <see cref="HttpRequestProcessor.WritePending"/>, then processes the rest of the buffer.
/// </param>
public readonly record struct ProcessResult(int Responses, bool Close, int WebSocketRoute = -1, bool Pending = false)
{
    public bool Upgraded => WebSocketRoute >= 0;
}

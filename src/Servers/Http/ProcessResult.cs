namespace Benchmarks.Servers.Http;

/// <summary>What one pass of <see cref="HttpRequestProcessor.Process"/> did.</summary>
/// <param name="Responses">Responses written to the output.</param>
/// <param name="Close">Close the connection once they are sent.</param>
/// <param name="WebSocketRoute">The route upgraded to a WebSocket (101 written), or -1.</param>
public readonly record struct ProcessResult(int Responses, bool Close, int WebSocketRoute = -1)
{
    public bool Upgraded => WebSocketRoute >= 0;
}

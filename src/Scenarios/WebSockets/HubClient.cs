using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

internal sealed class HubClient : IDisposable
{
    private readonly WebSocket _socket;
    private readonly SemaphoreSlim _sendGate = new(1, 1);

    public HubClient(WebSocket socket)
    {
        _socket = socket;
    }

    public async Task SendAsync(ReadOnlyMemory<byte> message, WebSocketMessageType type, CancellationToken cancellationToken)
    {
        await _sendGate.WaitAsync(cancellationToken);
        try
        {
            await _socket.SendAsync(message, type, true, cancellationToken);
        }
        finally
        {
            _sendGate.Release();
        }
    }

    public async Task TrySendAsync(ReadOnlyMemory<byte> message, WebSocketMessageType type, CancellationToken cancellationToken)
    {
        try
        {
            await SendAsync(message, type, cancellationToken);
        }
        catch (Exception ex) when (ex is WebSocketException or ObjectDisposedException or OperationCanceledException or IOException)
        {
            // That client is leaving; the others still get the message.
        }
    }

    public void Dispose() => _sendGate.Dispose();
}

using System.Buffers;
using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>Receives whole messages (all fragments) into a pooled buffer that grows up to a limit.</summary>
internal sealed class MessageBuffer : IDisposable
{
    private const int MaxMessage = 1024 * 1024;
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(4096);

    public ReadOnlyMemory<byte> Message { get; private set; }

    public WebSocketMessageType Type { get; private set; }

    /// <summary>False when the peer closed (the close handshake is answered) or the message is too big (closed with 1009).</summary>
    public async Task<bool> ReceiveAsync(WebSocket webSocket, CancellationToken cancellationToken)
    {
        var length = 0;
        ValueWebSocketReceiveResult result;
        do
        {
            if (length == _buffer.Length)
            {
                if (_buffer.Length >= MaxMessage)
                {
                    await webSocket.CloseAsync(WebSocketCloseStatus.MessageTooBig, "message too big", cancellationToken);
                    return false;
                }

                var larger = ArrayPool<byte>.Shared.Rent(_buffer.Length * 2);
                _buffer.AsSpan(0, length).CopyTo(larger);
                ArrayPool<byte>.Shared.Return(_buffer);
                _buffer = larger;
            }

            result = await webSocket.ReceiveAsync(_buffer.AsMemory(length), cancellationToken);
            length += result.Count;
        }
        while (!result.EndOfMessage && result.MessageType != WebSocketMessageType.Close);

        if (result.MessageType == WebSocketMessageType.Close)
        {
            if (webSocket.State == WebSocketState.CloseReceived)
            {
                await webSocket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, cancellationToken);
            }

            return false;
        }

        Message = _buffer.AsMemory(0, length);
        Type = result.MessageType;
        return true;
    }

    public void Dispose() => ArrayPool<byte>.Shared.Return(_buffer);
}

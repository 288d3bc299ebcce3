using System.Buffers;
using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>websocket-shootout's echo and broadcast on /ws, JSON (text) and binary forms.</summary>
public sealed class WebSocketBroadcastScenario : IWebSocketScenario
{
    private const int MaxMessage = 1024 * 1024;
    private static readonly string[] s_routes = ["/ws"];
    private readonly BroadcastHub _hub = new();

    public string Name => "ws-broadcast";

    public string Description => "websocket-shootout: {\"type\":\"echo\"|\"broadcast\",\"payload\":…} at /ws (or the binary form); broadcasts go to every client, then broadcastResult to the sender.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/ws", PipelineDepth: 1, Connections: 50);

    public void Handle(in ScenarioRequest request, IScenarioResponse response) => UpgradeRequired.Write(response);

    public IResponseValidator? CreateValidator() => null;

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(webSocket);
        var client = _hub.Join(webSocket);
        var buffer = ArrayPool<byte>.Shared.Rent(4096);
        try
        {
            while (true)
            {
                var length = 0;
                ValueWebSocketReceiveResult result;
                do
                {
                    if (length == buffer.Length)
                    {
                        if (buffer.Length >= MaxMessage)
                        {
                            await webSocket.CloseAsync(WebSocketCloseStatus.MessageTooBig, null, cancellationToken);
                            return;
                        }

                        var larger = ArrayPool<byte>.Shared.Rent(buffer.Length * 2);
                        buffer.AsSpan(0, length).CopyTo(larger);
                        ArrayPool<byte>.Shared.Return(buffer);
                        buffer = larger;
                    }

                    result = await webSocket.ReceiveAsync(buffer.AsMemory(length), cancellationToken);
                    length += result.Count;
                }
                while (!result.EndOfMessage && result.MessageType != WebSocketMessageType.Close);

                if (result.MessageType == WebSocketMessageType.Close)
                {
                    if (webSocket.State == WebSocketState.CloseReceived)
                    {
                        await webSocket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, cancellationToken);
                    }

                    return;
                }

                if (!await AnswerAsync(client, buffer.AsMemory(0, length), result.MessageType, cancellationToken))
                {
                    await webSocket.CloseAsync(WebSocketCloseStatus.InvalidPayloadData, "not a websocket-shootout message", cancellationToken);
                    return;
                }
            }
        }
        catch (WebSocketException)
        {
        }
        finally
        {
            _hub.Leave(client);
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private async Task<bool> AnswerAsync(HubClient sender, ReadOnlyMemory<byte> message, WebSocketMessageType type, CancellationToken cancellationToken)
    {
        if (type == WebSocketMessageType.Binary)
        {
            if (message.Length < 5)
            {
                return false;
            }

            switch ((char)message.Span[0])
            {
                case 'e':
                    await sender.SendAsync(message, type, cancellationToken);
                    return true;
                case 'b':
                    var copy = message.ToArray();
                    await _hub.BroadcastAsync(copy, type, cancellationToken);
                    copy[0] = (byte)'r';
                    await sender.SendAsync(copy, type, cancellationToken);
                    return true;
                default:
                    return false;
            }
        }

        if (!ShootoutMessages.TryParseJson(message.Span, out var kind, out var payload))
        {
            return false;
        }

        switch (kind)
        {
            case "echo":
                await sender.SendAsync(message, type, cancellationToken);
                return true;
            case "broadcast":
                var body = message[payload];
                await _hub.BroadcastAsync(ShootoutMessages.Json("broadcast", body.Span), type, cancellationToken);
                await sender.SendAsync(ShootoutMessages.Json("broadcastResult", body.Span), type, cancellationToken);
                return true;
            default:
                return false;
        }
    }
}

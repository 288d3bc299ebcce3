using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>websocket-shootout's echo and broadcast on /ws, JSON (text) and binary forms.</summary>
public sealed class WebSocketBroadcastScenario : IWebSocketScenario
{
    public WebSocketLoadKind LoadKind => WebSocketLoadKind.Broadcast;

    private static readonly string[] s_routes = ["/ws"];
    private readonly BroadcastHub _hub = new();

    public string Name => "ws-broadcast";

    public string Description =>
        "websocket-shootout: {\"type\":\"echo\"|\"broadcast\",\"payload\":…} at /ws (or the binary form); broadcasts go to every client, " +
        "then broadcastResult to the sender.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/ws", PipelineDepth: 1, Connections: 50);

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(webSocket);
        var client = _hub.Join(webSocket);
        using var received = new MessageBuffer();
        try
        {
            while (await received.ReceiveAsync(webSocket, cancellationToken))
            {
                if (!await AnswerAsync(client, received.Message, received.Type, cancellationToken))
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

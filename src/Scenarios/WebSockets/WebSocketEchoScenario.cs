using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>WebSocket echo as in the k6 framework comparison: /plain (text), /json (number rule), /binary (int32 rule).</summary>
public sealed class WebSocketEchoScenario : IWebSocketScenario
{
    private static readonly string[] s_routes = ["/plain", "/json", "/binary"];

    public string Name => "ws-echo";

    public string Description => "WebSocket echo: /plain echoes text, /json answers {\"number\":n} with n+1 (odd) or n+2 (even), /binary the same on int32 LE.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/plain", PipelineDepth: 1, Connections: 64);

    /// <summary>Each message kind has its route: text on /plain, json on /json, binary on /binary.</summary>
    public string RouteFor(string message) => message switch
    {
        "json" => "/json",
        "binary" => "/binary",
        _ => "/plain",
    };

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(webSocket);
        using var received = new MessageBuffer();
        var reply = new byte[64];
        try
        {
            while (await received.ReceiveAsync(webSocket, cancellationToken))
            {
                var message = received.Message;
                switch (route)
                {
                    case 0:
                        await webSocket.SendAsync(message, received.Type, true, cancellationToken);
                        break;
                    case 1 when EchoRules.TryJsonReply(message.Span, reply, out var written):
                        await webSocket.SendAsync(reply.AsMemory(0, written), WebSocketMessageType.Text, true, cancellationToken);
                        break;
                    case 2 when received.Type == WebSocketMessageType.Binary && EchoRules.TryBinaryReply(message.Span, reply):
                        await webSocket.SendAsync(reply.AsMemory(0, 4), WebSocketMessageType.Binary, true, cancellationToken);
                        break;
                    default:
                        await webSocket.CloseAsync(WebSocketCloseStatus.InvalidPayloadData, "not a message this route answers", cancellationToken);
                        return;
                }
            }
        }
        catch (WebSocketException)
        {
            // The client went away without a close handshake.
        }
    }
}

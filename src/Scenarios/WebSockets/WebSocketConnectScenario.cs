using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>Connection rate as in the k6 comparison: /connection upgrades, then the client closes.</summary>
public sealed class WebSocketConnectScenario : IWebSocketScenario
{
    public WebSocketLoadKind LoadKind => WebSocketLoadKind.Connect;

    private static readonly string[] s_routes = ["/connection"];

    public string Name => "ws-connect";

    public string Description => "WebSocket connection rate: /connection upgrades, the client checks for 101 and closes.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/connection", PipelineDepth: 1, Connections: 64);

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(webSocket);
        var buffer = new byte[128];
        try
        {
            while (true)
            {
                var result = await webSocket.ReceiveAsync(buffer.AsMemory(), cancellationToken);
                if (result.MessageType == WebSocketMessageType.Close)
                {
                    if (webSocket.State == WebSocketState.CloseReceived)
                    {
                        await webSocket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, cancellationToken);
                    }

                    return;
                }
            }
        }
        catch (WebSocketException)
        {
        }
    }
}

using System.Net.WebSockets;
using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>Test double: accepts WebSockets at /plain and never answers a message.</summary>
public sealed class SilentScenario : IWebSocketScenario
{
    private static readonly string[] s_routes = ["/plain"];

    public string Name => "ws-silent";

    public string Description => "Test double: a WebSocket server that stops answering.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/plain", PipelineDepth: 1, Connections: 4);

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        var buffer = new byte[1024];
        try
        {
            while ((await webSocket.ReceiveAsync(buffer.AsMemory(), cancellationToken)).MessageType != WebSocketMessageType.Close)
            {
            }
        }
        catch (WebSocketException)
        {
        }
    }
}

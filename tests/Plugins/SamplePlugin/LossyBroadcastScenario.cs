using System.Collections.Concurrent;
using System.Net.WebSockets;
using System.Text;
using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>Test double: websocket-shootout broadcast that skips the first client on every tenth broadcast (JSON only).</summary>
public sealed class LossyBroadcastScenario : IWebSocketScenario
{
    private static readonly string[] s_routes = ["/ws"];
    private readonly ConcurrentDictionary<WebSocket, SemaphoreSlim> _clients = new();
    private int _broadcasts;

    public string Name => "ws-lossy-broadcast";

    public string Description => "Test double: broadcast that loses a delivery every tenth time.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/ws", PipelineDepth: 1, Connections: 4);

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        using var gate = new SemaphoreSlim(1, 1);
        _clients[webSocket] = gate;
        var buffer = new byte[4096];
        try
        {
            while (true)
            {
                var result = await webSocket.ReceiveAsync(buffer.AsMemory(), cancellationToken);
                if (result.MessageType == WebSocketMessageType.Close)
                {
                    await webSocket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, cancellationToken);
                    return;
                }

                var text = Encoding.UTF8.GetString(buffer, 0, result.Count);
                if (text.Contains("\"type\":\"echo\"", StringComparison.Ordinal))
                {
                    await Send(webSocket, gate, text, cancellationToken);
                    continue;
                }

                var payload = text[(text.IndexOf("\"payload\":", StringComparison.Ordinal) + 10)..^1];
                var skip = Interlocked.Increment(ref _broadcasts) % 10 == 0;
                foreach (var (client, clientGate) in _clients.OrderBy(c => c.Key.GetHashCode()).Skip(skip ? 1 : 0))
                {
                    await Send(client, clientGate, $"{{\"type\":\"broadcast\",\"payload\":{payload}}}", cancellationToken);
                }

                await Send(webSocket, gate, $"{{\"type\":\"broadcastResult\",\"payload\":{payload}}}", cancellationToken);
            }
        }
        catch (WebSocketException)
        {
        }
        finally
        {
            _clients.TryRemove(webSocket, out _);
        }
    }

    private static async Task Send(WebSocket socket, SemaphoreSlim gate, string message, CancellationToken cancellationToken)
    {
        await gate.WaitAsync(cancellationToken);
        try
        {
            await socket.SendAsync(Encoding.UTF8.GetBytes(message), WebSocketMessageType.Text, true, cancellationToken);
        }
        catch (Exception ex) when (ex is WebSocketException or ObjectDisposedException)
        {
        }
        finally
        {
            gate.Release();
        }
    }
}

using System.Buffers.Text;
using System.Net.WebSockets;
using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>Test double: a WebSocket echo at /json that breaks the parity rule (answers n+3), as a buggy framework would.</summary>
public sealed class WrongParityScenario : IWebSocketScenario
{
    private static readonly string[] s_routes = ["/json"];

    public string Name => "ws-wrong-parity";

    public string Description => "Test double: JSON echo that answers n+3 instead of n+1/n+2.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/json", PipelineDepth: 1, Connections: 4);

    public string EchoMessage => "json";

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        var buffer = new byte[256];
        var reply = new byte[64];
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

                var digits = buffer.AsSpan(10, result.Count - 11);
                _ = Utf8Parser.TryParse(digits, out int n, out _);
                "{\"number\":"u8.CopyTo(reply);
                Utf8Formatter.TryFormat(n + 3, reply.AsSpan(10), out var written);
                reply[10 + written] = (byte)'}';
                await webSocket.SendAsync(reply.AsMemory(0, 11 + written), WebSocketMessageType.Text, true, cancellationToken);
            }
        }
        catch (WebSocketException)
        {
        }
    }
}

using System.Buffers;
using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>WebSocket echo as in the k6 framework comparison: /plain (text), /json (number rule), /binary (int32 rule).</summary>
public sealed class WebSocketEchoScenario : IWebSocketScenario
{
    private const int MaxMessage = 1024 * 1024;
    private static readonly string[] s_routes = ["/plain", "/json", "/binary"];

    public string Name => "ws-echo";

    public string Description => "WebSocket echo: /plain echoes text, /json answers {\"number\":n} with n+1 (odd) or n+2 (even), /binary the same on int32 LE.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/plain", PipelineDepth: 1, Connections: 64);

    public void Handle(in ScenarioRequest request, IScenarioResponse response) => UpgradeRequired.Write(response);

    public IResponseValidator? CreateValidator() => null;

    public async Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(webSocket);
        var buffer = ArrayPool<byte>.Shared.Rent(4096);
        var reply = new byte[64];
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
                            await webSocket.CloseAsync(WebSocketCloseStatus.MessageTooBig, "message too big", cancellationToken);
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

                var message = buffer.AsMemory(0, length);
                switch (route)
                {
                    case 0:
                        await webSocket.SendAsync(message, result.MessageType, true, cancellationToken);
                        break;
                    case 1 when EchoRules.TryJsonReply(message.Span, reply, out var written):
                        await webSocket.SendAsync(reply.AsMemory(0, written), WebSocketMessageType.Text, true, cancellationToken);
                        break;
                    case 2 when result.MessageType == WebSocketMessageType.Binary && EchoRules.TryBinaryReply(message.Span, reply):
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
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}

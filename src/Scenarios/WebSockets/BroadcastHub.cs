using System.Collections.Concurrent;
using System.Net.WebSockets;

namespace Benchmarks.Scenarios.WebSockets;

/// <summary>The connected clients of ws-broadcast; a WebSocket takes one send at a time, so each has a send gate.</summary>
internal sealed class BroadcastHub
{
    private readonly ConcurrentDictionary<HubClient, byte> _clients = new();

    public HubClient Join(WebSocket socket)
    {
        var client = new HubClient(socket);
        _clients[client] = 0;
        return client;
    }

    public void Leave(HubClient client)
    {
        _clients.TryRemove(client, out _);
        client.Dispose();
    }

    /// <summary>Sends one message to every client, the sender included; a client that fails is skipped.</summary>
    public Task BroadcastAsync(ReadOnlyMemory<byte> message, WebSocketMessageType type, CancellationToken cancellationToken) =>
        Task.WhenAll(_clients.Keys.Select(c => c.TrySendAsync(message, type, cancellationToken)));
}

using System.Net;

namespace Benchmarks.Load.WebSockets;

/// <summary>What the built-in WebSocket load generator does.</summary>
public sealed record WebSocketLoadOptions() : Core.LoadSettings(DefaultLoad.WebSocketConnections, DefaultLoad.WebSocketTimeout)
{
    public WebSocketLoadMode Mode { get; init; } = WebSocketLoadMode.EchoSync;

    public EchoMessageKind Message { get; init; } = EchoMessageKind.Text;

    /// <summary>Messages in flight per connection in async echo.</summary>
    public int Window { get; init; } = DefaultLoad.WebSocketWindow;

    /// <summary>Length of a text message in bytes.</summary>
    public int TextLength { get; init; } = DefaultLoad.WebSocketMessageSize;

    /// <summary>Source addresses to spread connections over (past ~64k ports per destination).</summary>
    public IReadOnlyList<IPAddress> LocalAddresses { get; init; } = [];

    public void Validate()
    {
        if (Url.Scheme is not ("ws" or "http" or "wss" or "https"))
        {
            throw new ArgumentException($"Only ws:// and wss:// URLs are supported by the WebSocket load generator (got '{Url}').");
        }

        ValidateSettings("messages");
        if (Window < 1)
        {
            throw new ArgumentException($"--window must be at least 1 (got {Window}).");
        }

        if (TextLength is < 8 or > 1_000_000)
        {
            throw new ArgumentException($"--message-size must be between 8 and 1000000 (got {TextLength}).");
        }

        if (Rate is not null && Mode != WebSocketLoadMode.EchoSync)
        {
            throw new ArgumentException("--rate sends each message at its own time, one at a time per connection: " +
                "it needs the echo mode (--ws-mode echo-sync), not a window of messages in flight or connects.");
        }
    }
}

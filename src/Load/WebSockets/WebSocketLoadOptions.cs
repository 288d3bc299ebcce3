using System.Net;

namespace Benchmarks.Load.WebSockets;

/// <summary>What the built-in WebSocket load generator does.</summary>
public sealed record WebSocketLoadOptions
{
    public required Uri Url { get; init; }

    public WebSocketLoadMode Mode { get; init; } = WebSocketLoadMode.EchoSync;

    public EchoMessageKind Message { get; init; } = EchoMessageKind.Text;

    /// <summary>Connections (echo) or virtual users opening connections one after another (connect).</summary>
    public int Connections { get; init; } = DefaultLoad.WebSocketConnections;

    /// <summary>Messages in flight per connection in async echo.</summary>
    public int Window { get; init; } = DefaultLoad.WebSocketWindow;

    /// <summary>Length of a text message in bytes.</summary>
    public int TextLength { get; init; } = DefaultLoad.WebSocketMessageSize;

    public TimeSpan Duration { get; init; } = DefaultLoad.Duration;

    public TimeSpan Warmup { get; init; } = DefaultLoad.Warmup;

    /// <summary>A reply or handshake that takes longer is a timeout error.</summary>
    public TimeSpan Timeout { get; init; } = DefaultLoad.WebSocketTimeout;

    /// <summary>Source addresses to spread connections over (past ~64k ports per destination).</summary>
    public IReadOnlyList<IPAddress> LocalAddresses { get; init; } = [];

    /// <summary>
    /// Open model (echo only, one message at a time per connection): messages per second in all,
    /// each due at its slot in a fixed timeline and its round trip timed from that slot as well as
    /// from its send; null: closed loop.
    /// </summary>
    public double? Rate { get; init; }

    public void Validate()
    {
        if (Url.Scheme is not ("ws" or "http"))
        {
            throw new ArgumentException($"Only ws:// URLs are supported by the WebSocket load generator (got '{Url}').");
        }

        if (Connections < 1)
        {
            throw new ArgumentException($"--connections must be at least 1 (got {Connections}).");
        }

        if (Window < 1)
        {
            throw new ArgumentException($"--window must be at least 1 (got {Window}).");
        }

        if (TextLength is < 8 or > 1_000_000)
        {
            throw new ArgumentException($"--message-size must be between 8 and 1000000 (got {TextLength}).");
        }

        if (Rate is { } rate && (!double.IsFinite(rate) || rate < 1 || rate > DefaultLoad.MaxRate))
        {
            throw new ArgumentException(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"--rate must be between 1 and {DefaultLoad.MaxRate:n0} messages per second (got {rate:g6})."));
        }

        if (Rate is not null && Mode != WebSocketLoadMode.EchoSync)
        {
            throw new ArgumentException("--rate sends each message at its own time, one at a time per connection: it needs the echo mode (--ws-mode echo-sync), not a window of messages in flight or connects.");
        }

        if (Duration <= TimeSpan.Zero || Warmup < TimeSpan.Zero || Timeout <= TimeSpan.Zero)
        {
            throw new ArgumentException("--duration and --timeout must be positive and --warmup not negative.");
        }
    }
}

namespace Benchmarks.Load.WebSockets;

public enum WebSocketLoadMode
{
    /// <summary>One message in flight per connection: the next goes when the reply arrives.</summary>
    EchoSync,

    /// <summary>A window of messages in flight per connection, replies checked in order.</summary>
    EchoAsync,

    /// <summary>Open (handshake, check 101), close, repeat: handshakes per second.</summary>
    Connect,

    /// <summary>Open every connection and hold it idle: memory per connection.</summary>
    Idle,
}

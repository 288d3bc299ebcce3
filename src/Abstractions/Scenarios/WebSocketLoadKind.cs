namespace Benchmarks.Scenarios;

/// <summary>The load a WebSocket scenario is measured with when the user names none.</summary>
public enum WebSocketLoadKind
{
    /// <summary>Messages echoed on held connections, one in flight each.</summary>
    Echo,

    /// <summary>Connections opened, upgraded and closed: the handshake rate.</summary>
    Connect,

    /// <summary>websocket-shootout's broadcast steps: clients added until the RTT limit.</summary>
    Broadcast,
}

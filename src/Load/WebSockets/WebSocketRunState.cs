namespace Benchmarks.Load.WebSockets;

/// <summary>Shared by the connections of one WebSocket load run besides the run's switches.</summary>
internal sealed class WebSocketRunState : Core.LoadSwitches
{
    /// <summary>Connections open and idle (idle mode).</summary>
    public int Open;
}

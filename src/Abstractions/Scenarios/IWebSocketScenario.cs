using System.Net.WebSockets;

namespace Benchmarks.Scenarios;

/// <summary>
/// A scenario served over WebSockets. The server model performs the upgrade on one of the
/// scenario's routes (Kestrel's WebSockets, or an RFC 6455 handshake and
/// <see cref="WebSocket.CreateFromStream(System.IO.Stream, WebSocketCreationOptions)"/> on the raw
/// servers) and hands the socket over; a plain HTTP request gets the scenario's
/// <see cref="IScenario.Handle"/> answer (426 Upgrade Required).
/// </summary>
public interface IWebSocketScenario : IScenario
{
    /// <summary>The load <c>run</c> gives this scenario when the user names none: an echo unless the scenario says otherwise.</summary>
    WebSocketLoadKind LoadKind => WebSocketLoadKind.Echo;

    /// <summary>Serves one accepted WebSocket on <paramref name="route"/> until either side closes it.</summary>
    Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken);
}

using System.Buffers;
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

    /// <summary>
    /// What an echo load sends when the user names nothing (<c>--message</c>): <c>text</c> (the
    /// default), <c>json</c> (<c>{"number":n}</c>, answered by the number rule) or <c>binary</c> (an
    /// int32, the same rule).
    /// </summary>
    string EchoMessage => "text";

    /// <summary>
    /// The route that answers <paramref name="message"/> (<c>text</c>, <c>json</c> or <c>binary</c>):
    /// by default the load's route, which answers every kind; a scenario with a route per kind
    /// (ws-echo) says which.
    /// </summary>
    string RouteFor(string message) => Load.Path;

    /// <summary>Serves one accepted WebSocket on <paramref name="route"/> until either side closes it.</summary>
    Task RunAsync(WebSocket webSocket, int route, CancellationToken cancellationToken);

    /// <summary>A plain HTTP request to a WebSocket route: 426 Upgrade Required.</summary>
    void IScenario.Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.StatusCode = 426;
        response.ContentType = HeaderValue.TextPlain;
        response.Body.Write("This route speaks WebSocket."u8);
    }

    /// <summary>WebSocket messages are checked by the load's own rules, not by a response validator.</summary>
    IResponseValidator? IScenario.CreateValidator() => null;
}

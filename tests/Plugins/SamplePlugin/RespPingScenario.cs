using System.Buffers;
using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>
/// A protocol from outside the host, server and client: RESP's inline <c>PING</c>, answered
/// <c>+PONG</c> as Redis answers it. The server side answers every line; the load's side is
/// <see cref="RespPingClient"/>, which a real Redis server answers the same way.
/// </summary>
public sealed class RespPingScenario : ITcpScenario
{
    private static readonly string[] s_routes = ["/"];

    public string Name => "resp-ping";

    public string Description =>
        "Sample third-party TCP protocol: RESP's inline PING answered +PONG (tcp:// on the sockets and libuv servers; load --tcp, or a Redis server).";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/", PipelineDepth: 1, Connections: 64);

    /// <summary>Not an HTTP scenario: an HTTP request reaching it is answered 400.</summary>
    public void Handle(in ScenarioRequest request, IScenarioResponse response) => response.StatusCode = 400;

    /// <summary>Every line received is a command; each is answered <c>+PONG</c>, whatever its split across reads.</summary>
    public void Receive(ReadOnlySpan<byte> received, IBufferWriter<byte> reply)
    {
        var lines = received.Count((byte)'\n');
        for (var i = 0; i < lines; i++)
        {
            reply.Write(RespPingClient.Answer);
        }
    }

    public ITcpExchange CreateLoadClient(int connection) => new RespPingClient();

    public IResponseValidator? CreateValidator() => null;
}

using System.Buffers;

namespace Benchmarks.Scenarios.Tcp;

/// <summary>Raw TCP echo: every byte received is sent back, in order; the server closes when the client does.</summary>
public sealed class TcpEchoScenario : ITcpScenario
{
    private static readonly string[] s_routes = ["/"];

    public string Name => "tcp-echo";

    public string Description => "Raw TCP echo below HTTP: every byte sent back (tcp:// on the sockets and libuv servers; load --tcp).";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/", PipelineDepth: 1, Connections: 2000);

    /// <summary>Not an HTTP scenario: an HTTP request reaching it is answered 400.</summary>
    public void Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        ArgumentNullException.ThrowIfNull(response);
        response.StatusCode = 400;
    }

    public void Receive(ReadOnlySpan<byte> received, IBufferWriter<byte> reply)
    {
        ArgumentNullException.ThrowIfNull(reply);
        reply.Write(received);
    }

    public IResponseValidator? CreateValidator() => null;
}

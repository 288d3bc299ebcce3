using System.Buffers;
using Benchmarks.Scenarios;

namespace Benchmarks.Scenarios.Plaintext;

/// <summary>TechEmpower plaintext: <c>Hello, World!</c> as <c>text/plain</c>, one request per write.</summary>
public sealed class PlaintextScenario : IScenario
{
    internal static ReadOnlySpan<byte> Body => "Hello, World!"u8;

    private static readonly string[] s_routes = ["/plaintext"];

    public string Name => "plaintext";

    public string Description => "TechEmpower plaintext: 'Hello, World!' as text/plain at /plaintext, no pipelining.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/plaintext", PipelineDepth: 1, Connections: 256);

    public void Handle(in ScenarioRequest request, IScenarioResponse response) => Write(response);

    public IResponseValidator CreateValidator() => new ExactBodyValidator(Body);

    internal static void Write(IScenarioResponse response)
    {
        // The body text lives in one static buffer (allowed by the rules); headers are built per response by the server.
        response.ContentType = HeaderValue.TextPlain;
        response.Body.Write(Body);
    }
}

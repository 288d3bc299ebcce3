using System.Buffers;
using Benchmarks.Scenarios;

namespace Benchmarks.Samples.Plugin;

/// <summary>A scenario from outside the host: a fixed greeting at /greeting.</summary>
public sealed class GreetingScenario : IScenario
{
    private static readonly string[] s_routes = ["/greeting"];

    internal static ReadOnlySpan<byte> Body => "Greetings from a plugin"u8;

    public string Name => "greeting";

    public string Description => "Sample third-party scenario: 'Greetings from a plugin' at /greeting.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/greeting", PipelineDepth: 1, Connections: 8);

    public void Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        response.ContentType = HeaderValue.TextPlain;
        response.Body.Write(Body);
    }

    public IResponseValidator CreateValidator() => new GreetingValidator();

    private sealed class GreetingValidator : IResponseValidator
    {
        public int MaxBodyLength => 64;

        public bool IsValid(ReadOnlySpan<byte> body) => body.SequenceEqual(Body);
    }
}

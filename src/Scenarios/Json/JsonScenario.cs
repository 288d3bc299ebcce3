using System.Text.Json;
using Benchmarks.Scenarios;

namespace Benchmarks.Scenarios.Json;

/// <summary>TechEmpower JSON: a new object serialized for every request.</summary>
public sealed class JsonScenario : IScenario
{
    internal const string MessageText = "Hello, World!";

    private static readonly string[] s_routes = ["/json"];

    [ThreadStatic]
    private static Utf8JsonWriter? t_writer;

    public string Name => "json";

    public string Description => "TechEmpower JSON: {\"message\":\"Hello, World!\"} serialized per request at /json.";

    public IReadOnlyList<string> Routes => s_routes;

    public LoadDefaults Load { get; } = new("/json", PipelineDepth: 1, Connections: 256);

    public void Handle(in ScenarioRequest request, IScenarioResponse response)
    {
        response.ContentType = HeaderValue.ApplicationJson;
        var writer = t_writer ??= new Utf8JsonWriter(response.Body, new JsonWriterOptions { SkipValidation = true });
        writer.Reset(response.Body);
        JsonSerializer.Serialize(writer, new JsonMessage(MessageText), JsonScenarioContext.Default.JsonMessage);
    }

    public IResponseValidator CreateValidator() => new JsonMessageValidator();
}

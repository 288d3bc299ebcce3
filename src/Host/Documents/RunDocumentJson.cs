using System.Text.Json;
using System.Text.Json.Serialization;

namespace Benchmarks.Host.Documents;

/// <summary>Source-generated JSON for run documents (camelCase, indented).</summary>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    WriteIndented = true,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals)]
[JsonSerializable(typeof(RunDocument))]
public sealed partial class RunDocumentJson : JsonSerializerContext
{
    public static string Serialize(RunDocument document) => JsonSerializer.Serialize(document, Default.RunDocument);

    public static RunDocument Deserialize(string json) =>
        JsonSerializer.Deserialize(json, Default.RunDocument) ?? throw new JsonException("The run document is empty.");
}

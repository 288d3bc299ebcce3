using System.Text.Json.Serialization;

namespace Benchmarks.Scenarios.Json;

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(JsonMessage))]
internal sealed partial class JsonScenarioContext : JsonSerializerContext;

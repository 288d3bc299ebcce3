using System.Text.Json.Serialization;

namespace Benchmarks.Scenarios.Database;

/// <summary>Source-generated JSON for the database scenarios: <c>{"id":N,"randomNumber":N}</c> as TechEmpower names them.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(World))]
[JsonSerializable(typeof(World[]))]
internal sealed partial class DatabaseJsonContext : JsonSerializerContext;

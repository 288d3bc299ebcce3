using System.Text.Json.Serialization;

namespace Benchmarks.Load.Http;

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true)]
[JsonSerializable(typeof(LoadResult))]
public sealed partial class LoadResultJson : JsonSerializerContext;

using System.Text.Json.Serialization;

namespace Benchmarks.Load.WebSockets;

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true, UseStringEnumConverter = true)]
[JsonSerializable(typeof(WebSocketLoadResult))]
public sealed partial class WebSocketLoadResultJson : JsonSerializerContext;

using System.Text.Json.Serialization;

namespace Benchmarks.Load.WebSockets;

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true)]
[JsonSerializable(typeof(BroadcastResult))]
public sealed partial class BroadcastResultJson : JsonSerializerContext;

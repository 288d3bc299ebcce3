using System.Text.Json.Serialization;

namespace Benchmarks.Load.Tcp;

/// <summary>Source-generated JSON for <see cref="TcpLoadResult"/> (load --json).</summary>
[JsonSourceGenerationOptions(WriteIndented = true, PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, UseStringEnumConverter = true)]
[JsonSerializable(typeof(TcpLoadResult))]
public sealed partial class TcpLoadResultJson : JsonSerializerContext;

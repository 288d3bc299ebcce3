using System.Text.Json.Nodes;

namespace Benchmarks.Host.Crank;

/// <summary>One measurement of a statistics block: its name, its value as sent (usually a number) and when it was taken.</summary>
internal sealed record StatisticsValue(string Name, JsonNode? Value, DateTime Timestamp);

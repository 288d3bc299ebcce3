namespace Benchmarks.Scenarios.Json;

/// <summary>The object TechEmpower's JSON test serializes.</summary>
public sealed record JsonMessage(string Message);

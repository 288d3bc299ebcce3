namespace Benchmarks.Scenarios.Database;

/// <summary>One row of TechEmpower's World table.</summary>
public sealed record World(int Id, int RandomNumber);

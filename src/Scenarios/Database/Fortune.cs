namespace Benchmarks.Scenarios.Database;

/// <summary>One row of TechEmpower's Fortune table.</summary>
public sealed record Fortune(int Id, string Message);

namespace Benchmarks.Host.Sweeps;

/// <summary>One swept option (or the scenario) and the values it takes, in the order given.</summary>
internal sealed record SweepAxis(string Name, IReadOnlyList<string> Values);

namespace Benchmarks.Scenarios;

/// <summary>The load a scenario gets unless the user overrides it.</summary>
/// <param name="Path">Request path, one of the scenario's routes.</param>
/// <param name="PipelineDepth">Requests written at once per connection (1 = no pipelining).</param>
/// <param name="Connections">Concurrent connections.</param>
public sealed record LoadDefaults(string Path, int PipelineDepth, int Connections);

namespace Benchmarks.Host.Jobs;

/// <summary>The scenario and server model a NativeAOT server compiles in: each type's full name and the plugin assembly that holds it.</summary>
internal sealed record NativeServerPlan(string ScenarioType, string ScenarioAssembly, string ServerType, string ServerAssembly);

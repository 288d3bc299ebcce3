namespace Benchmarks.Tests.Support;

/// <summary>One job of a crank scenario, as sent to an agent.</summary>
internal sealed record CrankJob(string Name, string Job, string Arguments, string? LocalFolder, string? Project, string? Executable, string? ReadyStateText,
    bool IsConsoleApp, bool WaitForExit, IReadOnlyList<string> Endpoints, string? CpuSet, IReadOnlyDictionary<string, string> EnvironmentVariables);

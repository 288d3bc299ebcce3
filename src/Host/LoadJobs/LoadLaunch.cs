using Benchmarks.Load.Http;

namespace Benchmarks.Host.LoadJobs;

/// <summary>What a load job is started with: the scenario it checks responses against, the load options, plugins and CPUs.</summary>
internal sealed record LoadLaunch(string Scenario, HttpLoadOptions Load)
{
    public IReadOnlyList<string> PluginDirectories { get; init; } = [];

    public IReadOnlyList<int>? Cpus { get; init; }

    /// <summary>The adaptive warm-up also waits for the run's <see cref="LoadProtocol.ServerWarm"/> lines on its input.</summary>
    public bool WarmupGate { get; init; }
}

namespace Benchmarks.Host.Jobs;

/// <summary>What a server child process is started with.</summary>
internal sealed record ServerLaunch(string Scenario, string Server, Uri Url)
{
    public IReadOnlyDictionary<string, string> Options { get; init; } = new Dictionary<string, string>();

    public IReadOnlyList<string> PluginDirectories { get; init; } = [];

    public IReadOnlyList<int>? Cpus { get; init; }

    /// <summary>Environment variables of the server process (a database scenario's connection string).</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>Ask the server for its once-a-second <see cref="RuntimeActivity"/> lines.</summary>
    public bool ReportRuntime { get; init; }
}

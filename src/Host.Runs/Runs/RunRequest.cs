using Benchmarks.Host.LoadJobs;
using Benchmarks.Load.Http;
using Benchmarks.Scenarios;

namespace Benchmarks.Host.Runs;

/// <summary>Everything <c>benchmarks run</c> was asked to do, resolved and validated.</summary>
internal sealed record RunRequest
{
    public required IScenario Scenario { get; init; }

    public required string ServerName { get; init; }

    /// <summary>Where the server listens (scheme, host and port).</summary>
    public required Uri ServerUrl { get; init; }

    /// <summary>How HTTP travels to the server: the protocol, and TLS (the server's URL is https:// then).</summary>
    public Servers.HttpWire Wire { get; init; } = Servers.HttpWire.Cleartext;

    /// <summary>The certificate a TLS server presents (<c>--certificate FILE[:password]</c>); null: one made at its start.</summary>
    public string? Certificate { get; init; }

    /// <summary>The key of the certificate made at the server's start (<c>--certificate-key</c>).</summary>
    public string CertificateKey { get; init; } = "rsa2048";

    /// <summary>
    /// The server runtime's settings (<see cref="RuntimeSettings"/>: name to value), each a
    /// parameter of the run and checked against what the server reports.
    /// </summary>
    public IReadOnlyDictionary<string, string> Runtime { get; init; } = new Dictionary<string, string>();

    /// <summary>The runtime patch the server runs on (<see cref="Jobs.RuntimePatch"/>); null: this program's own.</summary>
    public string? RuntimeVersion { get; init; }

    /// <summary>How the server program is built as asked (<c>--publish</c>: a parameter of the run); null: not asked.</summary>
    public string? Publish { get; init; }

    /// <summary>
    /// The bytes a JIT server runs from (<c>--publish jit</c>:
    /// <see cref="Jobs.NativeServerBuild.JitBytes"/>); null: not asked, or a published server.
    /// </summary>
    public long? JitBytes { get; init; }

    /// <summary>The server program to publish and run (<c>--publish aot|r2r</c>); null: the server is this program's <c>serve</c>.</summary>
    public Jobs.NativeServerPlan? Native { get; init; }

    /// <summary>The load job's options; the URL is the server's with the scenario's path.</summary>
    public required HttpLoadOptions Load { get; init; }

    /// <summary>The load generator: the built-in one or wrk.</summary>
    public required ILoadJob LoadJob { get; init; }

    public IReadOnlyDictionary<string, string> ServerOptions { get; init; } = new Dictionary<string, string>();

    public IReadOnlyList<string> PluginDirectories { get; init; } = [];

    public IReadOnlyList<int>? ServerCpus { get; init; }

    public IReadOnlyList<int>? LoadCpus { get; init; }

    /// <summary>The server's CPU quota in CPUs' worth of time (<c>--server-cpu-limit</c>, a cgroup's or a Job Object's); null: none.</summary>
    public double? ServerCpuLimit { get; init; }

    /// <summary>The memory the server's processes may use together (<c>--server-memory-limit</c>); null: no limit.</summary>
    public long? ServerMemoryLimit { get; init; }

    /// <summary>CPUs of the private database cluster a database scenario starts; null to leave it unpinned.</summary>
    public IReadOnlyList<int>? DatabaseCpus { get; init; }

    /// <summary>A reverse proxy started in front of the server; the load and the checks go through it.</summary>
    public Proxies.ProxyKind? Proxy { get; init; }

    /// <summary>Where the proxy listens (the load's URL is on it).</summary>
    public Uri? ProxyUrl { get; init; }

    /// <summary>CPUs of the proxy; null to leave it unpinned.</summary>
    public IReadOnlyList<int>? ProxyCpus { get; init; }

    /// <summary>An existing database's connection string (<c>--database</c>); null starts a private cluster.</summary>
    public string? Database { get; init; }

    public TimeSpan StartTimeout { get; init; } = TimeSpan.FromSeconds(30);

    public IReadOnlyList<string> Labels { get; init; } = [];

    /// <summary>A latency and error target (<see cref="ServiceLevel"/>) the run is checked against; null: none.</summary>
    public string? Slo { get; init; }

    /// <summary>What the load job is started with.</summary>
    public LoadLaunch LoadLaunch =>
        new(Scenario.Name, Load) { PluginDirectories = PluginDirectories, Cpus = LoadCpus, LatencyDistribution = LatencyDistribution };

    /// <summary>Where the load writes its window's latency distribution (<c>--latency-distribution</c>, a full path); null: nowhere.</summary>
    public string? LatencyDistribution { get; init; }

    /// <summary>Measured windows on one server process; the first one warms up.</summary>
    public int Iterations { get; init; } = 1;

    /// <summary>
    /// Only the server's start, this many times (<c>--startup N</c>): each fresh start measured to
    /// its first response, no load; 0: a load run.
    /// </summary>
    public int Startup { get; init; }

    /// <summary>A fresh server for each iteration, each warmed up: the spread then includes start-up and JIT variance.</summary>
    public bool Restart { get; init; }

    /// <summary>How many of the highest and of the lowest iterations to leave out of the means (crank's <c>--exclude</c>).</summary>
    public int Exclude { get; init; }

    /// <summary>The measurement that ranks iterations for <see cref="Exclude"/>; null for the load's throughput.</summary>
    public string? ExcludeOrder { get; init; }

    /// <summary>Run the TechEmpower checks against the server before loading it.</summary>
    public bool Verify { get; init; } = true;

    /// <summary>How long to trace the server from the first window's start (<c>--trace</c>); null: no trace.</summary>
    public TimeSpan? Trace { get; init; }

    /// <summary>
    /// What records <see cref="Trace"/>: <see cref="Documents.RunTrace.EventPipe"/> (managed
    /// stacks, every OS) or <see cref="Documents.RunTrace.Perf"/> (Linux perf: every frame, kernel
    /// and native included).
    /// </summary>
    public string Profiler { get; init; } = Documents.RunTrace.EventPipe;

    /// <summary>Read the server's runtime counters over EventPipe each second (a .NET server).</summary>
    public bool RuntimeCounters { get; init; } = true;
}

using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Runs;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary>
/// What <c>benchmarks run</c> was asked for, in the user's terms and unchecked: each value as
/// given, null (or false, or empty) where it was not. <see cref="RunPlanner"/> turns it into a
/// <see cref="RunRequest"/> or says in one line why it cannot be run, before anything starts.
/// </summary>
internal sealed record RunChoices
{
    public required string Scenario { get; init; }

    /// <summary>The server model named; null: the first that serves the scenario (kestrel, else sockets).</summary>
    public string? Server { get; init; }

    /// <summary>Where the server listens; null: 127.0.0.1 on a free port.</summary>
    public Uri? Urls { get; init; }

    /// <summary>The wire the options asked for (<c>--protocol</c>, <c>--tls</c>, an https:// address).</summary>
    public HttpWire Wire { get; init; } = HttpWire.Cleartext;

    public string? Certificate { get; init; }

    public string CertificateKey { get; init; } = "rsa2048";

    /// <summary>The load's generator as named (<c>--generator</c>); null: the built-in one.</summary>
    public string? Generator { get; init; }

    public LoadChoices Load { get; init; } = new();

    public IReadOnlyList<string> ServerOptions { get; init; } = [];

    public IReadOnlyList<string> PluginDirectories { get; init; } = [];

    public IReadOnlyList<string> Labels { get; init; } = [];

    public string? ServerCpus { get; init; }

    public string? LoadCpus { get; init; }

    public string? DatabaseCpus { get; init; }

    public bool NoPin { get; init; }

    public double? ServerCpuLimit { get; init; }

    public long? ServerMemoryLimit { get; init; }

    /// <summary>none, nginx or haproxy.</summary>
    public string Proxy { get; init; } = "none";

    public string? ProxyCpus { get; init; }

    public string? Database { get; init; }

    public TimeSpan? StartTimeout { get; init; }

    public string? Slo { get; init; }

    public FileInfo? LatencyDistribution { get; init; }

    public bool NoVerify { get; init; }

    public bool NoCounters { get; init; }

    public bool Trace { get; init; }

    public TimeSpan? TraceSeconds { get; init; }

    /// <summary>The profiler named (<c>--profiler</c>); null: not named (EventPipe, and no trace unless asked).</summary>
    public string? Profiler { get; init; }

    public int Iterations { get; init; } = 1;

    public bool Restart { get; init; }

    public int Startup { get; init; }

    public int Exclude { get; init; }

    public string? ExcludeOrder { get; init; }

    /// <summary>A search for the highest rate that meets <see cref="Slo"/> (<c>--find-max</c>).</summary>
    public bool FindMax { get; init; }

    /// <summary>One of many windows of a sweep: a latency distribution file would be one window's of many.</summary>
    public bool SweepCell { get; init; }

    /// <summary>The WebSocket load's mode as named (<c>--ws-mode</c>); null: the scenario's.</summary>
    public string? WebSocketMode { get; init; }

    /// <summary>The echo message kind (<c>--message</c>); null: from the scenario's route.</summary>
    public string? Message { get; init; }

    public int? Window { get; init; }

    public int? MessageSize { get; init; }

    public IReadOnlyList<string> LocalAddresses { get; init; } = [];

    /// <summary>The broadcast knobs given, as arguments for the load (<c>--step-size 500</c> …).</summary>
    public IReadOnlyList<string> Broadcast { get; init; } = [];

    /// <summary>The TCP load's mode as named (<c>--tcp-mode</c>); null: persistent.</summary>
    public string? TcpMode { get; init; }

    public bool LingerZero { get; init; }

    /// <summary>How the server program is built (<c>--publish jit|r2r|aot</c>); null: not given (jit, this program as it is).</summary>
    public string? Publish { get; init; }

    /// <summary>Another patch of the runtime for the server (<c>--runtime-version</c>); null: this program's.</summary>
    public string? RuntimeVersion { get; init; }

    /// <summary>The server runtime's settings given (<see cref="RuntimeSettings"/>: name to value).</summary>
    public IReadOnlyDictionary<string, string> Runtime { get; init; } = new Dictionary<string, string>();
}

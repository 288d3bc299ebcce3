using System.Net;

namespace Benchmarks.Host.Agent.Core;

/// <summary>How an agent listens, whom it serves, where it keeps jobs and how long they may take.</summary>
internal sealed record AgentOptions
{
    public required Uri Url { get; init; }

    /// <summary>Client networks allowed besides loopback. Required when listening beyond loopback.</summary>
    public IReadOnlyList<IPNetwork> AllowedNetworks { get; init; } = [];

    /// <summary>Host names a request may address the agent by, besides addresses, <c>localhost</c> and the machine's names.</summary>
    public IReadOnlyList<string> AllowedHosts { get; init; } = [];

    /// <summary>Serve connections from every local account, not only the agent's own and the administrator's.</summary>
    public bool AllowLocalUsers { get; init; }

    public required string JobsRoot { get; init; }

    /// <summary>
    /// The folder of published builds: by default inside <see cref="JobsRoot"/> and emptied with it;
    /// given (<c>--build-cache</c>), a folder of its own that the agents of one machine share and
    /// that outlives a restart.
    /// </summary>
    public string? BuildCacheRoot { get; init; }

    /// <summary>Largest upload (a source zip, a build file) and largest extracted archive.</summary>
    public long MaxUploadBytes { get; init; } = 512L * 1024 * 1024;

    /// <summary>Longest a job may run once started; it is stopped after that.</summary>
    public TimeSpan JobTimeLimit { get; init; } = TimeSpan.FromHours(2);

    /// <summary>A job whose controller has been silent this long is stopped and deleted (crank: 10 s).</summary>
    public TimeSpan DriverTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>The interface whose traffic is reported as <c>net/*</c>; null finds the one that carries the agent's address.</summary>
    public string? InterfaceName { get; init; }

    /// <summary>
    /// The operator's figure for what that interface's link carries (<c>--link-speed</c>), in place
    /// of its own speed; null reads the interface.
    /// </summary>
    public Metrics.LinkCapacity? LinkCapacity { get; init; }

    /// <summary>crank's hardware kind (Unknown, Cloud, Physical, ARM64, AMD64): <c>/info</c>'s <c>hw</c> and every job's <c>hardware</c>.</summary>
    public string Hardware { get; init; } = "Unknown";

    /// <summary>The machine's description: <c>/info</c>'s <c>env</c> and every job's <c>hardwareVersion</c>; default: processor model and core count.</summary>
    public string? HardwareVersion { get; init; }

    /// <summary>How long deleted jobs stay queryable (crank's agent: 18 h).</summary>
    public TimeSpan DeletedRetention { get; init; } = TimeSpan.FromHours(18);
}

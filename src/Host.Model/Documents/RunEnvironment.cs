namespace Benchmarks.Host.Documents;

/// <summary>Where a run happened, so that runs from different machines are not compared blindly.</summary>
public sealed class RunEnvironment
{
    public string Os { get; set; } = "";

    public string OsVersion { get; set; } = "";

    /// <summary>
    /// The kernel's release (Linux: <c>/proc/sys/kernel/osrelease</c>), which decides what io_uring
    /// and the network stack can do; null: not recorded (an older document, an imported one,
    /// another OS).
    /// </summary>
    public string? Kernel { get; set; }

    /// <summary>
    /// Whether io_uring could be used on the machine that ran the run: "available", or the probe's
    /// reason (a sysctl, a seccomp filter, the kernel); null: not Linux, or not recorded.
    /// </summary>
    public string? IoUring { get; set; }

    public string Architecture { get; set; } = "";

    public int Cores { get; set; }

    public string MachineName { get; set; } = "";

    public string Runtime { get; set; } = "";

    /// <summary>
    /// What the server's .NET runtime reported it ran with (its GC's settings, its JIT's switches,
    /// its version); null: no report (an older document, or a server that is not .NET).
    /// </summary>
    public SortedDictionary<string, string>? ServerRuntime { get; set; }

    /// <summary>The interface the run's traffic went over and its link's capacity; null: not recorded (an older document, an imported one).</summary>
    public RunNetwork? Network { get; set; }

    public string? Sdk { get; set; }

    public string? GitCommit { get; set; }

    public string ToolVersion { get; set; } = "";

    /// <summary>
    /// What the server was built from, by name: the shared frameworks
    /// (<c>Microsoft.NETCore.App</c>, <c>Microsoft.AspNetCore.App</c>) and every package, with
    /// their versions (crank's <c>collectDependencies</c> for an imported run); what a regression's
    /// report says changed.
    /// </summary>
    public SortedDictionary<string, string>? Dependencies { get; set; }
}

using System.CommandLine;

namespace Benchmarks.Host.Commands;

/// <summary>
/// What <c>load</c> writes besides its summary, for every generator: its own result as JSON, the crank
/// statistics block that <c>run</c> and the agent read, progress lines, the latency distribution;
/// and the parent whose exit stops it.
/// </summary>
internal sealed class LoadOutputOptionSet
{
    public Option<FileInfo?> Json { get; } = new("--json") { Description = "Write the measurements to this JSON file." };

    public Option<bool> Crank { get; } = new("--crank-statistics") { Description = "Print the measurements as a crank statistics block." };

    public Option<bool> Progress { get; } = new("--progress") { Description = "Print machine-readable progress lines ('#load ...') every second." };

    public Option<FileInfo?> Distribution { get; } = DistributionOption();

    public Option<int?> Parent { get; } = new("--parent-pid") { Description = "Exit when this process exits.", Hidden = true };

    public Option<string?> Slo { get; } = new("--slo") { Description = "A target the load must meet, such as 'p99<10ms' or 'p99.9<50ms,errors<0.1%': " +
        "'target …: met' or 'NOT met' after the summary, and exit code 5 when missed." };

    public IEnumerable<Option> All => [Json, Crank, Progress, Distribution, Parent, Slo];

    /// <summary><c>--latency-distribution FILE</c>, as <c>load</c> and <c>run</c> take it.</summary>
    public static Option<FileInfo?> DistributionOption() => new("--latency-distribution")
    {
        Description = "Write the window's latency distribution (round trips for WebSocket and TCP; from the due time under --rate) " +
            "to this file in HdrHistogram's percentile-distribution text (.hgrm), as wrk2 prints it and HdrHistogram's plotter reads it.",
    };
}

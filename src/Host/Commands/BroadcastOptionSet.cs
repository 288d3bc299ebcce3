using System.CommandLine;
using Benchmarks.Host.Cli;

namespace Benchmarks.Host.Commands;

/// <summary>websocket-shootout's broadcast knobs for <c>load --ws --ws-mode broadcast</c> and <c>run ws-broadcast</c>.</summary>
internal sealed class BroadcastOptionSet
{
    public Option<int> InitialClients { get; } = new("--initial-clients") { Description = "Clients connected before the first step.",
        DefaultValueFactory = _ => 1000 };

    public Option<int> StepSize { get; } = new("--step-size") { Description = "Clients added per step.", DefaultValueFactory = _ => 1000 };

    public Option<int> SampleSize { get; } = new("--sample-size") { Description = "RTTs collected per step.", DefaultValueFactory = _ => 100 };

    public Option<int> Concurrent { get; } = new("--concurrent") { Description = "Broadcasts in flight during a step.", DefaultValueFactory = _ => 10 };

    public Option<int> PayloadPadding { get; } = new("--payload-padding") { Description = "Bytes of padding in each payload.", DefaultValueFactory = _ => 0 };

    public Option<double> LimitPercentile { get; } = new("--limit-percentile") { Description = "Percentile compared with --limit-rtt.",
        DefaultValueFactory = _ => 95 };

    public Option<TimeSpan?> LimitRtt { get; } = OptionFactory.Duration("--limit-rtt", "-L", "Stop stepping when the percentile passes this (default 500ms).");

    public Option<int> TotalSteps { get; } = new("--total-steps") { Description = "Stop after this many steps (0: step until the limit).",
        DefaultValueFactory = _ => 0 };

    public Option<bool> Binary { get; } = new("--binary") { Description = "Use the binary protocol." };

    public IEnumerable<Option> All => [InitialClients, StepSize, SampleSize, Concurrent, PayloadPadding, LimitPercentile, LimitRtt, TotalSteps, Binary];
}

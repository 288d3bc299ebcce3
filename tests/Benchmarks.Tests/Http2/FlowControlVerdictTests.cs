using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>The flow-control clause of the verdict, read from a run document: named only when no CPU was saturated and the wait was large (<see cref="BottleneckRule.FlowControlWaitShare"/>).</summary>
public sealed class FlowControlVerdictTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Flow_control_is_named_only_when_no_cpu_was_saturated_and_the_wait_was_large()
    {
        static Benchmarks.Host.Documents.RunDocument Run(double server, double wait) => SampleRuns.Pinned(
            ("protocol", "h2c"),
            ("benchmarks/cpu/mean", server / 2), ("benchmarks/cpu/user", server / 4), ("benchmarks/cpu/kernel", server / 4),
            ("load/cpu/user", 5), ("load/cpu/kernel", 5), ("machine/cpu/idle", 40),
            ("http/flow-control/wait", wait));

        var held = BottleneckRule.Judge(Run(server: 40, wait: 80));
        Assert.Equal(CauseKinds.FlowControl.Name, held[0].Kind);
        Assert.StartsWith("HTTP/2 flow control: the load had requests to send and streams free but no room in the server's window 80% of the connections' time, while no CPU was saturated (server 40% of its CPU, load 20% of its)", held[0].Text, StringComparison.Ordinal);
        Assert.Equal(80, held[0].Evidence["http/flow-control/wait"]);

        // A saturated server is the limit whatever its windows did; a short wait is not flow control.
        Assert.Equal(CauseKinds.ServerCpu.Name, BottleneckRule.Judge(Run(server: 98, wait: 80))[0].Kind);
        Assert.Equal(CauseKinds.NothingSaturated.Name, BottleneckRule.Judge(Run(server: 40, wait: BottleneckRule.FlowControlWaitShare - 1))[0].Kind);
    }
}

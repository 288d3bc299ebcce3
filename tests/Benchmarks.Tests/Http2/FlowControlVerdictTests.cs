using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The flow-control clause of the verdict, read from a run document: named when the wait was large
/// (<see cref="BottleneckRule.FlowControlWaitShare"/>), as the cause when no CPU was saturated and
/// after the CPU's when one was.
/// </summary>
public sealed class FlowControlVerdictTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Flow_control_is_named_when_the_wait_was_large_first_when_no_cpu_was_saturated_and_after_the_cpu_when_one_was()
    {
        static Benchmarks.Host.Documents.RunDocument Run(double server, double wait) => SampleRuns.Pinned(
            ("protocol", "h2c"),
            ("benchmarks/cpu/mean", server / 2), ("benchmarks/cpu/user", server / 4), ("benchmarks/cpu/kernel", server / 4),
            ("load/cpu/user", 5), ("load/cpu/kernel", 5), ("machine/cpu/idle", 40),
            ("http/flow-control/wait", wait));

        var held = BottleneckRule.Judge(Run(server: 40, wait: 80));
        Assert.Equal(CauseKinds.FlowControl.Name, held[0].Kind);
        Assert.StartsWith(
            "HTTP/2 flow control: the load had requests to send and streams free but no room in the server's window 80% of the connections' time, " +
            "while no CPU was saturated (server 40% of its CPU, load 20% of its)",
            held[0].Text, StringComparison.Ordinal);
        Assert.Equal(80, held[0].Evidence["http/flow-control/wait"]);

        // A saturated server is the limit first; the windows that held its requests come after, with their own advice.
        var both = BottleneckRule.Judge(Run(server: 98, wait: 80));
        Assert.Equal([CauseKinds.ServerCpu.Name, CauseKinds.FlowControl.Name], both.Select(c => c.Kind));
        Assert.Equal(
            "HTTP/2 flow control as well: the load had requests to send and streams free but no room in the server's window 80% of the connections' time",
            both[1].Text);
        Assert.StartsWith("widen the server's HTTP/2 windows", both[1].Advice, StringComparison.Ordinal);
        Assert.Equal(80, both[1].Evidence["http/flow-control/wait"]);

        // A short wait is not flow control, with or without a saturated CPU.
        Assert.Equal([CauseKinds.NothingSaturated.Name],
            BottleneckRule.Judge(Run(server: 40, wait: BottleneckRule.FlowControlWaitShare - 1)).Select(c => c.Kind));
        Assert.Equal([CauseKinds.ServerCpu.Name], BottleneckRule.Judge(Run(server: 98, wait: BottleneckRule.FlowControlWaitShare - 1)).Select(c => c.Kind));
    }
}

using Benchmarks.Host.Verdicts;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// HTTP/2's flow control as a limit, end to end: the load measures the share of its connections'
/// time in which a request had a stream free but no room in the server's window
/// (<c>http/flow-control/wait</c>), and the verdict names flow control when that share is large
/// and no CPU was saturated. The server is real Kestrel serving gRPC, its connection window set
/// by its own knob (<c>--server-option http2ConnectionWindow</c>): HTTP/2's smallest, 65,535
/// bytes, holds four 16 KB requests at a time, where Kestrel's default of 1 MB holds them all.
/// Measuring: the verdict reads the server's CPU, which another test's processes would take.
/// </summary>
[Collection(Measuring.Name)]
public sealed class FlowControlRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    [MeasuredFact]
    public async Task Requests_held_by_the_servers_smallest_window_are_measured_and_named_and_the_default_window_holds_none()
    {
        // SimpleRequest { response_size: 10, payload: { body: 16,000 bytes } }: a 16 KB body the answer does not echo.
        var message = Path.Combine(TestPaths.NewTempDirectory(), "request.bin");
        await File.WriteAllBytesAsync(message, [0x10, 0x0a, 0x1a, 0x83, 0x7d, 0x12, 0x80, 0x7d, .. new byte[16_000]]);
        string[] Run(string results, params string[] more) =>
            ["run", "grpc-unary", "--grpc-message", message, "-c", "1", "--streams", "16", "-d", "2s", "-w", "1s", "--no-verify", "--results", results,
             .. more];

        var small = TestPaths.NewTempDirectory();
        var held = await HostRun.StartAsync(small, s_timeout, Run(small, "--server-option", "http2ConnectionWindow=65535"));
        Assert.True(held.ExitCode == 0, held.ToString());
        var heldRun = StoredRuns.Single(small);
        Assert.True(heldRun.Measurements["http/flow-control/wait"] >= BottleneckRule.FlowControlWaitShare,
            $"{heldRun.Measurements["http/flow-control/wait"]:0.0}% held; {heldRun.Bottleneck}");
        Assert.Equal("65535", heldRun.Parameters["server-option/http2ConnectionWindow"]);
        // On loopback a WINDOW_UPDATE comes back at once, and the server spends on the smaller batches much of
        // what the window holds back: it ran at 78-99% of its CPU (8,054 req/s at 99% with the default window,
        // 6,640-7,166 at 95-98% with this one), so flow control is the cause or comes right after the CPU's.
        Assert.Contains(heldRun.Causes, c => c.Kind == CauseKinds.FlowControl.Name);
        Assert.True(heldRun.Causes[0].Kind == CauseKinds.FlowControl.Name || heldRun.Causes[0].Kind is "server-cpu" or "kernel", heldRun.Bottleneck);
        Assert.Matches(
            "bound: (HTTP/2 flow control: |.*; HTTP/2 flow control as well: )the load had requests to send and streams free but no room in the server's window",
            held.Output);

        var wide = TestPaths.NewTempDirectory();
        var free = await HostRun.StartAsync(wide, s_timeout, Run(wide));
        Assert.True(free.ExitCode == 0, free.ToString());
        var freeRun = StoredRuns.Single(wide);
        Assert.True(freeRun.Measurements["http/flow-control/wait"] < 1,
            $"{freeRun.Measurements["http/flow-control/wait"]:0.0}% held under Kestrel's default window");
        Assert.DoesNotContain(freeRun.Causes, c => c.Kind == CauseKinds.FlowControl.Name);
        Assert.True(freeRun.Measurements["http/rps/mean"] > heldRun.Measurements["http/rps/mean"],
            $"{freeRun.Measurements["http/rps/mean"]:n0} req/s with the default window, {heldRun.Measurements["http/rps/mean"]:n0} with the smallest");
    }
}

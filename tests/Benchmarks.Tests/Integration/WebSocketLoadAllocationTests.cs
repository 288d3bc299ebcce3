using Benchmarks.Load.WebSockets;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Integration;

/// <summary>The WebSocket load's echo loop allocates nothing per message once warm, as the HTTP and TCP loads' do.</summary>
[Collection(Measuring.Name)]
public sealed class WebSocketLoadAllocationTests
{
    [MeasuredTheory]
    [InlineData(WebSocketLoadMode.EchoSync)]
    [InlineData(WebSocketLoadMode.EchoAsync)]
    public async Task The_websocket_load_allocates_nothing_per_message_against_a_real_server(WebSocketLoadMode mode)
    {
        await using var serve = await ServeProcess.StartAsync("sockets", "ws-echo");
        var options = new WebSocketLoadOptions
        {
            Url = new Uri($"ws://127.0.0.1:{serve.Port}/plain"),
            Mode = mode,
            Connections = 8,
            Window = 16,
            Duration = TimeSpan.FromSeconds(0.5),
            Warmup = TimeSpan.FromSeconds(0.25),
        };
        var machine = MachineLoad.Start();
        _ = await WebSocketLoadGenerator.RunAsync(options, null, CancellationToken.None);

        // A short and a long run: what a run allocates once is in both, so the difference per extra
        // message is what a message costs.
        var (shortBytes, shortRun) = await AllocatedDuring(options);
        var (longBytes, longRun) = await AllocatedDuring(options with { Duration = TimeSpan.FromSeconds(2) });

        Assert.True(longRun.IsClean && shortRun.IsClean, longRun.FirstError ?? shortRun.FirstError);
        Assert.True(longRun.Good - shortRun.Good > 5_000, $"{shortRun.Good} then {longRun.Good} echoes; {machine.Describe()}");
        var perMessage = (double)(longBytes - shortBytes) / (longRun.Good - shortRun.Good);
        Assert.True(perMessage < 1,
            $"{shortBytes:n0} bytes for {shortRun.Good:n0} messages, {longBytes:n0} for {longRun.Good:n0}: {perMessage:0.00} per extra message");
    }

    private static async Task<(long Bytes, WebSocketLoadResult Result)> AllocatedDuring(WebSocketLoadOptions options)
    {
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var result = await WebSocketLoadGenerator.RunAsync(options, null, CancellationToken.None);
        return (GC.GetTotalAllocatedBytes(precise: true) - before, result);
    }
}

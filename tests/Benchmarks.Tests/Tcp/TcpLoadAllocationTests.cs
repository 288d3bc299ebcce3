using Benchmarks.Load.Tcp;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Tcp;

/// <summary>The TCP load's echo loop allocates nothing per message once warm, as the HTTP load's does.</summary>
[Collection(Measuring.Name)]
public sealed class TcpLoadAllocationTests
{
    [MeasuredFact]
    public async Task The_tcp_load_allocates_nothing_per_echo_against_a_real_server()
    {
        await using var server = await ServeProcess.StartAsync("libuv", "tcp-echo", scheme: "tcp");
        var options = new TcpLoadOptions
        {
            Url = new Uri($"tcp://127.0.0.1:{server.Port}"),
            Connections = 16,
            Window = 4,
            Duration = TimeSpan.FromSeconds(0.5),
            Warmup = TimeSpan.FromSeconds(0.25),
        };
        var machine = MachineLoad.Start();
        var warm = await TcpLoadGenerator.RunAsync(options, null, CancellationToken.None);

        // The whole process's allocations over a short and a long run: what a run allocates once is
        // in both, so the difference per extra echo is what an echo costs. The long run lasts long
        // enough for 30,000 more echoes at the warm run's rate (1.5 s more here, up to 10 s).
        var (shortBytes, shortRun) = await AllocatedDuring(options);
        var extra = Servers.AllocationTests.SecondsFor(30_000, warm.Answered * 2, 2, 10);
        var (longBytes, longRun) = await AllocatedDuring(options with { Duration = options.Duration + extra });

        Assert.True(longRun.Answered - shortRun.Answered > 20_000, $"{shortRun.Answered} then {longRun.Answered} echoes; {machine.Describe()}");
        Assert.Equal(0, longRun.Failed.Values.Sum());
        var perEcho = (double)(longBytes - shortBytes) / (longRun.Answered - shortRun.Answered);
        Assert.True(perEcho < 1,
            $"{shortBytes:n0} bytes for {shortRun.Answered:n0} echoes, {longBytes:n0} for {longRun.Answered:n0}: {perEcho:0.00} per extra echo");
    }

    private static async Task<(long Bytes, TcpLoadResult Result)> AllocatedDuring(TcpLoadOptions options)
    {
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var result = await TcpLoadGenerator.RunAsync(options, null, CancellationToken.None);
        return (GC.GetTotalAllocatedBytes(precise: true) - before, result);
    }
}

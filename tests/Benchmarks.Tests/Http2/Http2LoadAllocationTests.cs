using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The HTTP/2 load allocates nothing per request once warm: framing, HPACK, streams and counting,
/// over h2c and over h2 (OpenSSL's TLS), and gRPC calls (a POST's DATA, the connection's window,
/// trailers, counting by status) in the open model (the epoll engine's idle stack and schedule).
/// </summary>
[Collection(Measuring.Name)]
public sealed class Http2LoadAllocationTests
{
    [MeasuredTheory]
    [InlineData("h2c", 0)]
    [InlineData("grpc", 20_000)]
    [InlineData("h2", 0)]
    public async Task The_http2_load_allocates_nothing_per_request_against_a_real_server(string protocol, int rate)
    {
        // Four streams per connection: answers one at a time and several per read both happen.
        const int streams = 4;
        var grpc = protocol == "grpc";
        await using var serve = await ServeProcess.StartAsync("kestrel", scenario: grpc ? "grpc-unary" : "plaintext",
            more: ["--protocol", grpc ? "h2c" : protocol]);
        var options = new HttpLoadOptions
        {
            Url = new Uri(
                $"{(protocol == "h2" ? "https" : "http")}://127.0.0.1:{serve.Port}/{(grpc ? "grpc.testing.BenchmarkService/UnaryCall" : "plaintext")}"),
            Grpc = grpc ? new Benchmarks.Load.Protocols.Grpc.GrpcCall([0x10, 0x0a]) : null,
            Http2 = true,
            Connections = 16,
            Threads = 1,
            PipelineDepth = streams,
            Rate = rate == 0 ? null : rate,
            Duration = TimeSpan.FromSeconds(1),
            Warmup = TimeSpan.FromSeconds(0.5),
            // gRPC: SimpleResponse { payload: { body: 10 zero bytes } }, framed.
            ValidatorFactory = () => grpc ? new ExactBody([0, 0, 0, 0, 14, 0x0a, 12, 0x12, 10, .. new byte[10]]) : new ExactBody("Hello, World!"),
        };
        var machine = MachineLoad.Start();
        var warm = await HttpLoadGenerator.RunAsync(options, null, CancellationToken.None);

        // The whole process's allocations over a short and a long run: what a run allocates once is in
        // both, so the difference per extra request is what a request costs. The long run lasts long
        // enough for 30,000 more requests at the warm run's rate.
        var (shortBytes, shortRun) = await AllocatedDuring(options);
        var (longBytes, longRun) = await AllocatedDuring(options with { Duration = options.Duration + Servers.AllocationTests.SecondsFor(30_000, warm.Good, 2,
            10) });
        Assert.True(longRun.IsClean && shortRun.IsClean, longRun.FirstError ?? shortRun.FirstError);
        Assert.Equal("epoll", longRun.Engine);
        Assert.True(longRun.Good - shortRun.Good > 20_000, $"{shortRun.Good} then {longRun.Good} good responses; {machine.Describe()}");
        var perRequest = (double)(longBytes - shortBytes) / (longRun.Good - shortRun.Good);
        Assert.True(perRequest < 1,
            $"{shortBytes:n0} bytes for {shortRun.Good:n0} requests, {longBytes:n0} for {longRun.Good:n0}: {perRequest:0.00} per extra request");
    }

    private static async Task<(long Bytes, LoadResult Result)> AllocatedDuring(HttpLoadOptions options)
    {
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var result = await HttpLoadGenerator.RunAsync(options, null, CancellationToken.None);
        return (GC.GetTotalAllocatedBytes(precise: true) - before, result);
    }
}

using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The HTTP/2 load's open model: each request leaves at its due time on a free stream, timed from
/// that time; past the server's capacity, requests wait for streams the server has not freed, and
/// that lateness is the server's, not the load's.
/// </summary>
[Collection(Measuring.Name)]
public sealed class Http2OpenModelTests
{
    [MeasuredTheory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task The_open_model_sends_each_request_at_its_time_on_a_free_stream(HttpLoadEngine engine)
    {
        await using var serve = await ServeProcess.StartAsync("kestrel", more: ["--protocol", "h2c"]);
        var machine = MachineLoad.Start();
        var result = await HttpLoadGenerator.RunAsync(
            new HttpLoadOptions
            {
                Url = new Uri($"http://127.0.0.1:{serve.Port}/plaintext"),
                Http2 = true,
                Connections = 4,
                PipelineDepth = 4,
                Rate = 2_000,
                Engine = engine,
                Duration = TimeSpan.FromSeconds(2),
                Warmup = TimeSpan.FromSeconds(0.5),
                ValidatorFactory = () => new ExactBody("Hello, World!"),
            },
            null,
            CancellationToken.None);
        Assert.True(result.IsClean, result.FirstError);
        Assert.Equal(engine == HttpLoadEngine.Epoll ? "epoll" : "sockets", result.Engine);

        // The window's due requests are the schedule's; what was answered is those, plus any left
        // waiting from the warm-up, less any still waiting at the end: every one went out and came back.
        Assert.InRange(result.Due, 3_800, 4_200);
        Assert.True(
            result.Good >= result.Due - result.Backlog - 100 && result.Good <= result.Due + result.BacklogAtStart + 100,
            $"{result.Good} answered, {result.Due} due, {result.BacklogAtStart} waiting at the start and {result.Backlog} at the end; {machine.Describe()}");
        Assert.NotNull(result.Uncorrected);
        Assert.True(result.Latency.P50 >= result.Uncorrected.P50 && result.Latency.P50 < 50,
            $"p50 {result.Latency.P50} ms from the due time, {result.Uncorrected.P50} from the send");
    }

    [MeasuredTheory]
    [InlineData(HttpLoadEngine.Sockets)]
    [InlineData(HttpLoadEngine.Epoll)]
    public async Task Past_the_servers_capacity_requests_late_for_want_of_a_free_stream_are_not_the_loads(HttpLoadEngine engine)
    {
        // gRPC calls on 8 streams in all: a few tens of thousands a second at most here, asked for 80,000.
        await using var serve = await ServeProcess.StartAsync("kestrel", scenario: "grpc-unary", more: ["--protocol", "h2c"]);
        var result = await HttpLoadGenerator.RunAsync(
            new HttpLoadOptions
            {
                Url = new Uri($"http://127.0.0.1:{serve.Port}/grpc.testing.BenchmarkService/UnaryCall"),
                Http2 = true,
                Grpc = new Benchmarks.Load.Protocols.Grpc.GrpcCall([0x10, 0x0a]),
                Connections = 8,
                PipelineDepth = 1,
                Threads = 1,
                Rate = 80_000,
                Engine = engine,
                Duration = TimeSpan.FromSeconds(2),
                Warmup = TimeSpan.FromSeconds(0.5),
                Timeout = TimeSpan.FromSeconds(10),
            },
            null,
            CancellationToken.None);
        Assert.True(result.IsShort && result.Late > 1_000, $"{result.RequestsPerSecond:n0} req/s of 80,000, {result.Late} late");
        Assert.True(result.LateByLoad * 10 < result.Late,
            $"{result.LateByLoad} of {result.Late} late requests blamed on the load, though every stream was busy");
    }
}

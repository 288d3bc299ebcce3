using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>The HTTP/2 load's open model: each request leaves at its due time on a free stream, timed from that time.</summary>
[Collection(Measuring.Name)]
public sealed class Http2OpenModelTests
{
    [Theory]
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
        Assert.True(result.Latency.P50 >= result.Uncorrected.P50 && result.Latency.P50 < 50, $"p50 {result.Latency.P50} ms from the due time, {result.Uncorrected.P50} from the send");
    }
}

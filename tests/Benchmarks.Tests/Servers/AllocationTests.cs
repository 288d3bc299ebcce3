using System.Buffers;
using System.Text;
using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios;
using Benchmarks.Servers;
using Benchmarks.Servers.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>The hot paths allocate nothing per request once warm (the micro-benchmarks show the same with MemoryDiagnoser).</summary>
[Collection(Measuring.Name)]
public sealed class AllocationTests
{
    private static readonly byte[] s_requests = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat(
        "GET /plaintext HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n", 16)));
    private static readonly byte[] s_responses = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat(
        "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\nHello, World!", 16)));

    [MeasuredFact]
    public void The_server_request_loop_allocates_nothing_per_request()
    {
        var processor = new HttpRequestProcessor(new Hello(), new RouteTable(["/plaintext"]), "Test");
        var output = new ArrayBufferWriter<byte>(64 * 1024);
        var responses = 0;
        void Run()
        {
            output.ResetWrittenCount();
            var buffer = new ReadOnlySequence<byte>(s_requests);
            responses = processor.Process(ref buffer, output).Responses;
        }

        Assert.Equal(0, AllocatedBy(Run));
        Assert.Equal(16, responses);
        Assert.Contains("Hello, World!", Encoding.ASCII.GetString(output.WrittenSpan), StringComparison.Ordinal);
    }

    [MeasuredFact]
    public void The_load_response_tally_allocates_nothing_per_response()
    {
        var parser = new HttpResponseParser(new Hello().CreateValidator());
        var histogram = new LatencyHistogram();
        var counters = default(ConnectionCounters);
        var left = 0;
        var runs = 0;
        var outcome = ResponseOutcome.Continue;
        void Run()
        {
            runs++;
            var outstanding = 16;
            outcome = ResponseTally.Process(parser, s_responses, ref counters, histogram, null, new BatchTimes(1, 1, 1000), measured: true, ref outstanding);
            left += outstanding;
        }

        Assert.Equal(0, AllocatedBy(Run));
        Assert.Equal(ResponseOutcome.Continue, outcome);
        Assert.Equal(0, left);
        Assert.Equal(16L * runs, counters.Good);
        Assert.Equal(16L * runs, histogram.TotalCount);
    }

    /// <summary>
    /// The epoll engine in cleartext, and over TLS, where OpenSSL encrypts and decrypts in place in
    /// the connection's own buffers; the io_uring engine, whose answers are tallied in the kernel's
    /// provided buffers.
    /// </summary>
    [MeasuredTheory]
    [InlineData("epoll", false)]
    [InlineData("epoll", true)]
    [InlineData("io_uring", false)]
    public async Task A_native_load_engine_allocates_nothing_per_request_against_a_real_server(string engine, bool tls)
    {
        Assert.True(OperatingSystem.IsLinux(), "the native engines are Linux's");
        await using var server = tls
            ? await ServeProcess.StartAsync("sockets", more: ["--tls", "--certificate-key", "ecdsa-p256"])
            : await ServeProcess.StartAsync("libuv");
        var options = new HttpLoadOptions
        {
            Url = new Uri($"{(tls ? "https" : "http")}://127.0.0.1:{server.Port}/plaintext"),
            Connections = 16,
            Threads = 1,
            PipelineDepth = 4,
            Duration = TimeSpan.FromSeconds(2),
            Warmup = TimeSpan.FromSeconds(1),
            Engine = engine == "io_uring" ? HttpLoadEngine.IoUring : HttpLoadEngine.Epoll,
            ValidatorFactory = new Hello().CreateValidator,
        };
        var machine = MachineLoad.Start();
        var warm = await HttpLoadGenerator.RunAsync(options with { Duration = TimeSpan.FromSeconds(1) }, null, CancellationToken.None);

        // The whole process's allocations over a short and a long run: what a run allocates once (its
        // clock, histograms, result) is in both, so the difference per extra request is what a request costs.
        // The long run is long enough for 30,000 more requests at the warm run's rate (2 to 10 s more). Both
        // without a warm-up of their own (the warm run was theirs): their connects are in both, so they cancel too.
        var (shortBytes, shortRun) = await AllocatedDuring(options with { Duration = TimeSpan.FromSeconds(1), Warmup = TimeSpan.Zero });
        var (longBytes, longRun) = await AllocatedDuring(options with { Duration = TimeSpan.FromSeconds(1) + SecondsFor(30_000, warm.Good, 2,
            10), Warmup = TimeSpan.Zero });

        Assert.Equal(engine, longRun.Engine);
        Assert.True(longRun.IsClean && shortRun.IsClean, longRun.FirstError ?? shortRun.FirstError);
        Assert.True(longRun.Good - shortRun.Good > 20_000, $"{shortRun.Good} then {longRun.Good} good responses; {machine.Describe()}");
        var perRequest = (double)(longBytes - shortBytes) / (longRun.Good - shortRun.Good);
        Assert.True(perRequest < 1,
            $"{shortBytes:n0} bytes for {shortRun.Good:n0} requests, {longBytes:n0} for {longRun.Good:n0}: {perRequest:0.00} per extra request");
    }

    [MeasuredTheory]
    [InlineData("sockets", 1)]
    [InlineData("sockets", 16)]
    [InlineData("libuv", 1)]
    [InlineData("iouring", 1)]
    public async Task A_raw_server_allocates_nothing_per_request_once_warm(string server, int depth)
    {
        // The server process's own count of allocated bytes (serve --report-runtime, once a second)
        // over a window of load. The runtime allocates some tens of KB a second under load whatever
        // the rate (the sockets server: about 75 KB/s at 200,000 and at 3,600,000 requests in
        // 4 s), so a few bytes per request is that; one object per request would be 24 or more.
        await using var serving = await ServeProcess.StartAsync(server, reportRuntime: true);
        var options = new HttpLoadOptions
        {
            Url = new Uri($"http://127.0.0.1:{serving.Port}/plaintext"),
            Connections = 32,
            Threads = 1,
            PipelineDepth = depth,
            Duration = TimeSpan.FromSeconds(2),
            Warmup = TimeSpan.FromSeconds(1),
            ValidatorFactory = new Hello().CreateValidator,
        };
        var machine = MachineLoad.Start();
        var warm = await HttpLoadGenerator.RunAsync(options with { Duration = TimeSpan.FromSeconds(1) }, null, CancellationToken.None);

        // What the server allocates idle (its heartbeat and timers), per second, is not the requests'.
        var (idleStart, idleStartAt) = await serving.NextRuntimeLineAsync();
        var (idleEnd, idleEndAt) = await serving.NextRuntimeLineAsync();
        var idlePerSecond = (ServeProcess.RuntimeValue(idleEnd,
            "allocated") - ServeProcess.RuntimeValue(idleStart, "allocated")) / (idleEndAt - idleStartAt).TotalSeconds;

        var (before, beforeAt) = await serving.NextRuntimeLineAsync();
        // Long enough for 30,000 requests at the warm-up's rate: 3 s on this machine, up to 12 s on a slow one.
        var window = SecondsFor(30_000, warm.Good, 3, 12);
        var result = await HttpLoadGenerator.RunAsync(options with { Duration = window, Warmup = TimeSpan.Zero }, null, CancellationToken.None);
        var (after, afterAt) = await serving.NextRuntimeLineAsync();
        Assert.True(result.IsClean, result.FirstError);
        Assert.True(result.Good > 20_000, $"{result.Good} good responses in {window.TotalSeconds:0} s; {machine.Describe()}");
        var bytes = ServeProcess.RuntimeValue(after, "allocated") - ServeProcess.RuntimeValue(before, "allocated");
        var perRequest = (bytes - (idlePerSecond * (afterAt - beforeAt).TotalSeconds)) / result.Good;
        Assert.True(perRequest < 4,
            $"{server} allocated {bytes:n0} bytes over {result.Good:n0} requests (pipeline {depth}) and {idlePerSecond:n0} a second idle: " +
            $"{perRequest:0.00} per request");
    }

    /// <summary>The seconds <paramref name="requests"/> take at <paramref name="perSecond"/>, within [least, most].</summary>
    internal static TimeSpan SecondsFor(long requests, long perSecond, int least, int most) =>
        TimeSpan.FromSeconds(Math.Clamp(Math.Ceiling((double)requests / Math.Max(1, perSecond)), least, most));

    private static async Task<(long Bytes, LoadResult Result)> AllocatedDuring(HttpLoadOptions options)
    {
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var result = await HttpLoadGenerator.RunAsync(options, null, CancellationToken.None);
        return (GC.GetTotalAllocatedBytes(precise: true) - before, result);
    }

    private static long AllocatedBy(Action action)
    {
        // Warm: past tiered compilation's delay (100 ms) and its call counts, so the measured calls run
        // the code a long run runs (tier-0 code and the switch to tier 1 are not what is measured).
        var warm = System.Diagnostics.Stopwatch.StartNew();
        while (warm.ElapsedMilliseconds < 500)
        {
            action();
        }

        // The Date line is formatted anew once a second (DateHeader: a string and its bytes, some 200
        // bytes per second, not per request): the measured calls (well under 100 ms) start just after
        // a renewal, so none falls in them.
        var untilNextSecond = TimeSpan.TicksPerSecond - (DateTime.UtcNow.Ticks % TimeSpan.TicksPerSecond);
        if (untilNextSecond < TimeSpan.TicksPerSecond / 2)
        {
            Thread.Sleep(TimeSpan.FromTicks(untilNextSecond + TimeSpan.TicksPerMillisecond));
        }

        _ = DateHeader.Line;
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 1000; i++)
        {
            action();
        }

        return GC.GetAllocatedBytesForCurrentThread() - before;
    }

    private sealed class Hello : IScenario
    {
        public string Name => "hello";

        public string Description => "";

        public IReadOnlyList<string> Routes { get; } = ["/plaintext"];

        public LoadDefaults Load { get; } = new("/plaintext", 1, 1);

        public void Handle(in ScenarioRequest request, IScenarioResponse response)
        {
            response.ContentType = HeaderValue.TextPlain;
            response.Body.Write("Hello, World!"u8);
        }

        public IResponseValidator CreateValidator() => new Exact();

        private sealed class Exact : IResponseValidator
        {
            public int MaxBodyLength => 13;

            public bool IsValid(ReadOnlySpan<byte> body) => body.SequenceEqual("Hello, World!"u8);
        }
    }
}

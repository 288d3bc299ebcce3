using System.Buffers;
using System.Text;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios;
using Benchmarks.Servers;
using Benchmarks.Servers.Http;

namespace Benchmarks.Tests.Servers;

/// <summary>The hot paths allocate nothing per request once warm (the micro-benchmarks show the same with MemoryDiagnoser).</summary>
public sealed class AllocationTests
{
    private static readonly byte[] s_requests = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("GET /plaintext HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n", 16)));
    private static readonly byte[] s_responses = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\nHello, World!", 16)));

    [Fact]
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

    [Fact]
    public void The_load_response_parser_and_histogram_allocate_nothing_per_response()
    {
        var parser = new HttpResponseParser(new Hello().CreateValidator());
        var histogram = new LatencyHistogram();
        var good = 0;
        void Run()
        {
            ReadOnlySpan<byte> data = s_responses;
            while (!data.IsEmpty && parser.Parse(ref data) == ResponseParseStatus.Complete)
            {
                histogram.Record(data.Length + 1000);
                good += parser.IsSuccess ? 1 : 0;
            }
        }

        Assert.Equal(0, AllocatedBy(Run));
        Assert.Equal(16 * 1100, good);
    }

    private static long AllocatedBy(Action action)
    {
        for (var i = 0; i < 100; i++)
        {
            action();
        }

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

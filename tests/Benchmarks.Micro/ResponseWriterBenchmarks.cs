using System.Buffers;
using BenchmarkDotNet.Attributes;
using Benchmarks.Scenarios;
using Benchmarks.Scenarios.Plaintext;
using Benchmarks.Servers.Http;

namespace Benchmarks.Micro;

/// <summary>The raw servers' response writer, and the whole request loop (parse, scenario, write) for 16 pipelined requests.</summary>
public class ResponseWriterBenchmarks
{
    private static readonly byte[] s_serverLine = "Server: Benchmarks\r\n"u8.ToArray();
    private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);
    private readonly HttpRequestProcessor _processor = new(new PlaintextScenario(), new RouteTable(["/plaintext"]), "Benchmarks");
    private readonly ReadOnlySequence<byte> _batch = new(Payloads.Requests);

    [Benchmark]
    public int WriteResponse()
    {
        _output.ResetWrittenCount();
        HttpResponseWriter.Write(_output, 200, HeaderValue.TextPlain, "Hello, World!"u8, close: false, s_serverLine);
        return _output.WrittenCount;
    }

    [Benchmark(OperationsPerInvoke = Payloads.Depth)]
    public int ProcessPipelinedBatch()
    {
        _output.ResetWrittenCount();
        var buffer = _batch;
        return _processor.Process(ref buffer, _output).Responses;
    }
}

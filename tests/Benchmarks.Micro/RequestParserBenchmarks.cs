using System.Buffers;
using BenchmarkDotNet.Attributes;
using Benchmarks.Servers.Http;

namespace Benchmarks.Micro;

/// <summary>The raw servers' request parser: one head, and a pipelined batch of 16 through the reader.</summary>
public class RequestParserBenchmarks
{
    private readonly HttpRequestReader _reader = new();
    private readonly ReadOnlySequence<byte> _batch = new(Payloads.Requests);

    [Benchmark]
    public int ParseHead()
    {
        HttpRequestParser.ParseHead(Payloads.Request, HttpRequestParser.DefaultMaxHeadLength, out var head);
        return head.HeadLength;
    }

    [Benchmark(OperationsPerInvoke = Payloads.Depth)]
    public long ReadPipelinedBatch()
    {
        var buffer = _batch;
        long total = 0;
        while (_reader.TryRead(buffer, out _, out _, out _, out var consumed) == RequestParseStatus.Complete)
        {
            total += consumed;
            buffer = buffer.Slice(consumed);
        }

        return total;
    }
}

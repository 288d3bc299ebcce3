using BenchmarkDotNet.Attributes;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios.Plaintext;

namespace Benchmarks.Micro;

/// <summary>The load generator's response parser (with body validation) and its latency histogram.</summary>
public class LoadClientBenchmarks
{
    private readonly HttpResponseParser _parser = new(new PlaintextScenario().CreateValidator());
    private readonly LatencyHistogram _histogram = new();
    private long _value = 123_456;

    [GlobalSetup]
    public void Fill()
    {
        var random = new Random(1);
        for (var i = 0; i < 1_000_000; i++)
        {
            _histogram.Record(random.NextInt64(10_000, 50_000_000));
        }
    }

    [Benchmark(OperationsPerInvoke = Payloads.Depth)]
    public int ParsePipelinedResponses()
    {
        ReadOnlySpan<byte> data = Payloads.Responses;
        var good = 0;
        while (!data.IsEmpty && _parser.Parse(ref data) == ResponseParseStatus.Complete)
        {
            good += _parser.IsSuccess ? 1 : 0;
        }

        return good;
    }

    [Benchmark]
    public void RecordLatency()
    {
        _value = (_value * 1103515245 + 12345) & 0xFFFFFFF;
        _histogram.Record(_value);
    }

    [Benchmark]
    public long Percentile99() => _histogram.ValueAtPercentile(99);
}

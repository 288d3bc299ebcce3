using BenchmarkDotNet.Attributes;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios.Plaintext;

namespace Benchmarks.Micro;

/// <summary>The load generator's response parser (with body validation), the tally both engines run per read, and its latency histogram.</summary>
public class LoadClientBenchmarks
{
    private readonly HttpResponseParser _parser = new(new PlaintextScenario().CreateValidator());
    private readonly LatencyHistogram _histogram = new();
    private long _value = 123_456;
    private ConnectionCounters _counters;

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

    /// <summary>What each engine does with a read of 16 pipelined responses: parse, validate, count, one histogram update.</summary>
    [Benchmark(OperationsPerInvoke = Payloads.Depth)]
    public long TallyPipelinedResponses()
    {
        var outstanding = Payloads.Depth;
        _ = ResponseTally.Process(_parser, Payloads.Responses, ref _counters, _histogram, null, new BatchTimes(1, 1, 1000), measured: true, ref outstanding);
        return _counters.Good;
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

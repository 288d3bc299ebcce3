using BenchmarkDotNet.Attributes;
using Benchmarks.Load.Statistics;
using HdrHistogram;

namespace Benchmarks.Micro;

/// <summary>
/// One latency record, the load's hot path: our lock-free histogram (shared by every connection of
/// a load, so it pays for its interlocked adds) against HdrHistogram's single-writer
/// <c>LongHistogram</c> and its <c>LongConcurrentHistogram</c>, all with the same layout (1 ns to
/// 2^42 ns, 3 significant digits), over the same latencies.
/// </summary>
public class HistogramBenchmarks
{
    private const int Values = 4096;
    private readonly long[] _values = new long[Values];
    private readonly LatencyHistogram _ours = new();
    private readonly LongHistogram _hdr = new(1, LatencyHistogram.HighestTrackableValue, 3);
    private readonly LongConcurrentHistogram _hdrConcurrent = new(1, LatencyHistogram.HighestTrackableValue, 3);

    [GlobalSetup]
    public void Fill()
    {
        var random = new Random(1);
        for (var i = 0; i < Values; i++)
        {
            _values[i] = (long)Math.Exp(random.NextDouble() * Math.Log(50_000_000)) + 10_000;
        }
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Values)]
    public void Ours()
    {
        foreach (var value in _values)
        {
            _ours.Record(value);
        }
    }

    [Benchmark(OperationsPerInvoke = Values)]
    public void HdrSingleWriter()
    {
        foreach (var value in _values)
        {
            _hdr.RecordValue(value);
        }
    }

    [Benchmark(OperationsPerInvoke = Values)]
    public void HdrConcurrent()
    {
        foreach (var value in _values)
        {
            _hdrConcurrent.RecordValue(value);
        }
    }
}

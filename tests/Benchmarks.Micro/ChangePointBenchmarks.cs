using BenchmarkDotNet.Attributes;
using Benchmarks.Host.Reports;

namespace Benchmarks.Micro;

/// <summary>
/// Change-point detection over one measurement of one series (<c>regressions</c>), at the lengths
/// a nightly lab's series reach: flat (every proposal dropped after a few shuffles) and with one
/// 5% step (the step's tests run every shuffle), in 3% noise.
/// </summary>
public class ChangePointBenchmarks
{
    private double[] _flat = [];
    private double[] _stepped = [];

    [Params(60, 200)]
    public int Runs { get; set; }

    [GlobalSetup]
    public void Build()
    {
        var random = new Random(1);
        double Noise() => 1 + (0.03 * Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble()));
        _flat = [.. Enumerable.Range(0, Runs).Select(_ => 100 * Noise())];
        _stepped = [.. Enumerable.Range(0, Runs).Select(i => (i < Runs * 2 / 3 ? 100.0 : 95.0) * Noise())];
    }

    [Benchmark]
    public int Flat() => ChangePointDetector.Detect(_flat, ChangePointSettings.Default).Count;

    [Benchmark]
    public int OneStep() => ChangePointDetector.Detect(_stepped, ChangePointSettings.Default).Count;
}

using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Runs;

/// <summary>One measured window of a run, filled as it is measured, so that a window cut short still keeps what it saw.</summary>
internal sealed class Iteration(int? number, double timeOffset)
{
    public SortedDictionary<string, double> Measurements { get; } = new(StringComparer.Ordinal);

    public List<RunSample> Samples { get; } = [];

    /// <summary>The warm-up's seconds before the window, when the load warmed up in this iteration.</summary>
    public List<RunSample> WarmupSamples { get; } = [];

    public RunSampling? Sampling { get; set; }

    public RunSampling? WarmupSampling { get; set; }

    /// <summary>The server's JIT time (ms) at the last sample, for each sample's JIT ms/s.</summary>
    public double? LastJitMilliseconds { get; set; }

    /// <summary>Ends the window and takes its samples (numbered, on the run's time line) and their aggregates; once.</summary>
    public void Close()
    {
        if (WarmupSampling is { } warmup)
        {
            WarmupSampling = null;
            foreach (var sample in warmup.Samples)
            {
                sample.Iteration = number;
                WarmupSamples.Add(sample);
            }
        }

        if (Sampling is not { } sampling)
        {
            return;
        }

        Sampling = null;
        sampling.EndWindow();
        foreach (var sample in sampling.Samples)
        {
            sample.Time += timeOffset;
            sample.Iteration = number;
            Samples.Add(sample);
        }

        foreach (var (name, value) in sampling.WindowMeasurements())
        {
            if (double.IsFinite(value))
            {
                Measurements[name] = value;
            }
        }
    }

    /// <summary>Moves the samples taken so far into the run's document (an iteration cut short keeps what it measured).</summary>
    public void MoveSamplesTo(RunDocument document)
    {
        document.Samples.AddRange(Samples);
        document.WarmupSamples.AddRange(WarmupSamples);
        Samples.Clear();
        WarmupSamples.Clear();
    }
}

using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

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

    /// <summary>
    /// The warm-up of a window after the first on a warm server: a second (or the run's warm-up if
    /// shorter) for its new load process, whose connects, JIT and, in the open model, the backlog
    /// they leave would otherwise fall into the window (1% of requests late at its start is a p99).
    /// </summary>
    public static TimeSpan LaterWarmup(TimeSpan warmup) => warmup < TimeSpan.FromSeconds(1) ? warmup : TimeSpan.FromSeconds(1);

    /// <summary>
    /// A second of the load's progress: starts or ends the window, or takes a sample (with the
    /// server's JIT time since the last one) and prints its line. True when the window started.
    /// </summary>
    public bool OnProgress(LoadProgress progress, HttpLoadOptions load, string unit, ServerWarmth warmth, IRunObserver observer)
    {
        if (Sampling is not { } sampling)
        {
            return false;
        }

        var warmup = WarmupSampling;
        switch (progress.Phase)
        {
            case LoadPhase.WindowStarted:
                warmup?.EndWindow();
                sampling.StartWindow();
                return true;
            case LoadPhase.WindowEnded:
                sampling.EndWindow();
                break;
            case LoadPhase.Window:
                if (sampling.Tick(progress.RequestsPerSecond) is { } sample)
                {
                    AddJit(sample, warmth);
                    observer.WindowSecond(sample, unit);
                }

                break;
            case LoadPhase.Warmup:
                var warm = warmup?.Tick(progress.RequestsPerSecond);
                if (warm is not null)
                {
                    AddJit(warm, warmth);
                }

                observer.WarmupSecond(progress, load, warm, unit);
                break;
        }

        return false;
    }

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

    /// <summary>The server's JIT time since this iteration's last sample, in the sample (when the server reports it).</summary>
    private void AddJit(RunSample sample, ServerWarmth warmth)
    {
        if (!warmth.Reports)
        {
            return;
        }

        var now = warmth.JitMilliseconds;
        if (LastJitMilliseconds is { } last)
        {
            sample.Values[SystemMeasures.Jit.Name] = Math.Max(0, now - last);
        }

        LastJitMilliseconds = now;
    }
}

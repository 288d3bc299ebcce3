using System.Diagnostics;
using Benchmarks.Host.Metrics;
using Benchmarks.Runs;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The measured window of a run as seen from outside the load process: snapshots at the
/// window's start and end (signalled by the load), and one sample per second in between.
/// Called from the load's output thread and the sampling loop, so it locks.
/// </summary>
internal sealed class RunSampling
{
    private readonly MetricsSampler _sampler;
    private readonly int _cores;
    private readonly Lock _lock = new();
    private readonly List<RunSample> _samples = [];
    private MetricsSnapshot? _windowStart;
    private MetricsSnapshot? _windowEnd;
    private MetricsSnapshot? _previous;

    public RunSampling(MetricsSampler sampler, int cores)
    {
        _sampler = sampler;
        _cores = cores;
    }

    public bool InWindow
    {
        get
        {
            lock (_lock)
            {
                return _windowStart is not null && _windowEnd is null;
            }
        }
    }

    public IReadOnlyList<RunSample> Samples
    {
        get
        {
            lock (_lock)
            {
                return [.. _samples];
            }
        }
    }

    public void StartWindow()
    {
        var now = _sampler.Take();
        lock (_lock)
        {
            _windowStart = now;
            _previous = now;
        }
    }

    public void EndWindow()
    {
        var now = _sampler.Take();
        lock (_lock)
        {
            if (_windowStart is not null)
            {
                // A process that is gone has no counters: end at the last snapshot that still saw it.
                var lost = (now.Server is null && _previous?.Server is not null) || (now.Load is null && _previous?.Load is not null);
                _windowEnd ??= lost ? _previous : now;
            }
        }
    }

    /// <summary>
    /// Takes the sample for a second of the window that the load just finished, with the load's
    /// own count for that second, so that rates and counters cover the same second.
    /// </summary>
    public RunSample? Tick(double requestsPerSecond)
    {
        var now = _sampler.Take();
        lock (_lock)
        {
            if (_windowStart is null || _windowEnd is not null || _previous is null)
            {
                return null;
            }

            var sample = new RunSample
            {
                Time = Stopwatch.GetElapsedTime(_windowStart.Timestamp, now.Timestamp).TotalSeconds,
                Values = MetricsDelta.Between(_previous, now, _cores, _sampler.LinkSpeedMbps),
            };
            if (!double.IsNaN(requestsPerSecond))
            {
                sample.Values["http/rps"] = requestsPerSecond;
            }
            _samples.Add(sample);
            _previous = now;
            return sample;
        }
    }

    /// <summary>Measurements over the whole window, or up to the last sample if it never ended.</summary>
    public SortedDictionary<string, double> WindowMeasurements()
    {
        MetricsSnapshot? start, end;
        List<RunSample> samples;
        lock (_lock)
        {
            start = _windowStart;
            end = _windowEnd ?? _previous;
            samples = [.. _samples];
        }

        if (start is null || end is null || ReferenceEquals(start, end))
        {
            return new(StringComparer.Ordinal);
        }

        var values = MetricsDelta.Between(start, end, _cores, _sampler.LinkSpeedMbps);
        var peakWorkingSet = samples.Select(s => s.Values.GetValueOrDefault("benchmarks/working-set")).DefaultIfEmpty(0).Max();
        if (values.TryGetValue("benchmarks/working-set", out var last))
        {
            values["benchmarks/working-set"] = Math.Max(last, peakWorkingSet);
        }

        return values;
    }
}

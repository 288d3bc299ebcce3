using System.Diagnostics;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Metrics;

namespace Benchmarks.Host.Runs;

/// <summary>
/// The measured window of a run as seen from outside the load process: one sample per second
/// (on the load's own second ticks when it reports them), and the window's values as each
/// measurement's catalog aggregate over those samples — the same reduction crank applies to
/// the agent's samples. Called from the load's output thread and the sampling loop, so it locks.
/// </summary>
internal sealed class RunSampling
{
    private readonly MetricsSampler _sampler;
    private readonly int _serverProcessId;
    private readonly int _loadProcessId;
    private readonly int _cores;
    private readonly Lock _lock = new();
    private readonly List<RunSample> _samples = [];
    private MetricsSnapshot? _windowStart;
    private MetricsSnapshot? _previous;
    private bool _ended;

    public RunSampling(MetricsSampler sampler, int serverProcessId, int loadProcessId, int cores)
    {
        _sampler = sampler;
        _serverProcessId = serverProcessId;
        _loadProcessId = loadProcessId;
        _cores = cores;
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
        var now = Take();
        lock (_lock)
        {
            _windowStart = now;
            _previous = now;
        }
    }

    /// <summary>Ends the window; its last part is a sample of its own when it is long enough to mean something.</summary>
    public void EndWindow()
    {
        lock (_lock)
        {
            if (_windowStart is null || _ended || _previous is null)
            {
                _ended = true;
                return;
            }
        }

        var now = Take();
        lock (_lock)
        {
            if (!_ended)
            {
                // The window's last part: its byte totals always count, its rates when it is long enough not to be noise.
                Add(now, double.NaN, rates: Stopwatch.GetElapsedTime(_previous!.Timestamp, now.Timestamp) > MetricsDelta.ShortestLastInterval);
            }

            _ended = true;
        }
    }

    /// <summary>
    /// Takes the sample for a second of the window that the load just finished, with the load's
    /// own count for that second, so that rates and counters cover the same second.
    /// </summary>
    public RunSample? Tick(double requestsPerSecond)
    {
        var now = Take();
        lock (_lock)
        {
            return _windowStart is null || _ended || _previous is null ? null : Add(now, requestsPerSecond);
        }
    }

    /// <summary>
    /// Each sampled measurement's catalog aggregate over the window's samples (the server's peak
    /// CPU second for <c>benchmarks/cpu</c>, the mean of the seconds for the CPU split, …).
    /// The load's own CPU is what the load reports, so its outside samples stay in the series only.
    /// </summary>
    public SortedDictionary<string, double> WindowMeasurements()
    {
        var samples = Samples;
        var values = new SortedDictionary<string, double>(StringComparer.Ordinal);
        foreach (var name in samples.SelectMany(s => s.Values.Keys).Distinct(StringComparer.Ordinal))
        {
            if (MeasurementCatalog.Find(name) is { Sampled: true } measurement)
            {
                values[name] = measurement.Aggregate.Apply([.. samples.Where(s => s.Values.ContainsKey(name)).Select(s => s.Values[name])]);
            }
        }

        return values;
    }

    private RunSample? Add(MetricsSnapshot now, double requestsPerSecond, bool rates = true)
    {
        // A process that is gone has no counters: its figures stop at the last sample that saw it.
        var sample = new RunSample
        {
            Time = Stopwatch.GetElapsedTime(_windowStart!.Timestamp, now.Timestamp).TotalSeconds,
            Values = MetricsDelta.Between(_previous!, now, _cores, _sampler.LinkSpeedMbps, _windowStart, rates),
        };
        if (!double.IsNaN(requestsPerSecond))
        {
            sample.Values[HttpMeasures.Rps.Name] = requestsPerSecond;
        }

        _samples.Add(sample);
        _previous = now;
        return sample;
    }

    private MetricsSnapshot Take() => _sampler.Take(_serverProcessId, _loadProcessId);
}

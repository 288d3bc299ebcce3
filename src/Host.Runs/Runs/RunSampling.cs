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
    private readonly int _databaseProcessId;
    private readonly int _proxyProcessId;
    private readonly Lock _lock = new();
    private readonly List<RunSample> _samples = [];
    private IntervalSeries? _series;
    private bool _ended;

    public RunSampling(MetricsSampler sampler, int serverProcessId, int loadProcessId, int databaseProcessId = 0, int proxyProcessId = 0)
    {
        _proxyProcessId = proxyProcessId;
        _databaseProcessId = databaseProcessId;
        _sampler = sampler;
        _serverProcessId = serverProcessId;
        _loadProcessId = loadProcessId;
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
        var series = new IntervalSeries(_sampler, () => _serverProcessId, _loadProcessId, databaseProcess: _databaseProcessId, proxyProcess: _proxyProcessId);
        lock (_lock)
        {
            _series ??= series;
        }
    }

    /// <summary>Ends the window: its last part is a sample of its own, or — too short for rates — adds its byte totals to the last one.</summary>
    public void EndWindow()
    {
        lock (_lock)
        {
            if (_series is not null && !_ended)
            {
                var rates = _series.SinceLast > MetricsDelta.ShortestLastInterval;
                var last = _series.Next(rates);
                if (last is not null && !rates && _samples.Count > 0)
                {
                    // Too short for rates: its byte totals complete the last second's sample.
                    foreach (var (name, value) in last)
                    {
                        _samples[^1].Values[name] = value;
                    }
                }
                else
                {
                    Add(last, double.NaN);
                }
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
        lock (_lock)
        {
            return _series is null || _ended ? null : Add(_series.Next(), requestsPerSecond);
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

    private RunSample? Add(SortedDictionary<string, double>? values, double requestsPerSecond)
    {
        if (values is null)
        {
            return null;
        }

        var sample = new RunSample { Time = _series!.SecondsSinceOrigin, Values = values };
        if (!double.IsNaN(requestsPerSecond))
        {
            sample.Values[SystemMeasures.LoadRate.Name] = requestsPerSecond;
        }

        _samples.Add(sample);
        return sample;
    }
}

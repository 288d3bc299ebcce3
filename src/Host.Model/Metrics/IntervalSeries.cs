using System.Diagnostics;
using Benchmarks.Host.Platform;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The per-interval samples of one measured job, as a local run and the agent both take them:
/// a snapshot at the origin (the window's or iteration's start), then one sample per interval
/// with the figures between the last snapshot and now, byte totals since the origin. When the
/// measured process changes (a job that names its child), its counters start again without a sample.
/// Not thread-safe: one caller at a time.
/// </summary>
internal sealed class IntervalSeries
{
    private readonly MetricsSampler _sampler;
    private readonly Func<int> _process;
    private readonly int _loadProcess;
    private readonly int _databaseProcess;
    private readonly int _proxyProcess;
    private readonly int _cores;
    private MetricsSnapshot _origin;
    private MetricsSnapshot _previous;
    private int _previousProcess;

    /// <summary>Starts the series at its origin now.</summary>
    public IntervalSeries(MetricsSampler sampler, Func<int> process, int loadProcess = 0, int? cores = null, int databaseProcess = 0, int proxyProcess = 0)
    {
        _databaseProcess = databaseProcess;
        _proxyProcess = proxyProcess;
        _sampler = sampler;
        _process = process;
        _loadProcess = loadProcess;
        _cores = cores ?? MachineCpus.Count;
        _origin = _previous = Take();
    }

    /// <summary>Seconds from the origin to the last sample.</summary>
    public double SecondsSinceOrigin => Stopwatch.GetElapsedTime(_origin.Timestamp, _previous.Timestamp).TotalSeconds;

    /// <summary>Time since the last sample (or the origin).</summary>
    public TimeSpan SinceLast => Stopwatch.GetElapsedTime(_previous.Timestamp);

    /// <summary>Starts again from now (a new window or iteration): totals and rates count from here.</summary>
    public void Restart() => _origin = _previous = Take();

    /// <summary>
    /// The sample of the interval that ends now; null when the measured process changed (its
    /// counters start here). With <paramref name="rates"/> false only the byte totals (a last, too short interval).
    /// </summary>
    public SortedDictionary<string, double>? Next(bool rates = true)
    {
        var measured = _previousProcess;
        var now = Take();
        var values = measured != _previousProcess ? null : MetricsDelta.Between(_previous, now, _cores, _sampler.LinkSpeedMbps, _origin, rates);
        _previous = now;
        return values;
    }

    /// <summary>The last interval of a job or window: its byte totals always count, its rates when it is long enough not to be noise.</summary>
    public SortedDictionary<string, double>? Last() => Next(rates: SinceLast > MetricsDelta.ShortestLastInterval);

    private MetricsSnapshot Take()
    {
        _previousProcess = _process();
        return _sampler.Take(_previousProcess, _loadProcess, _databaseProcess, _proxyProcess);
    }
}

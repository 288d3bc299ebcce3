using System.Diagnostics.Tracing;
using System.Globalization;
using Benchmarks.Host.Measurements;
using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The instruments of <c>System.Diagnostics.Metrics</c> meters a process publishes, read out of
/// process as dotnet-counters reads them: a session of <c>MetricsEventSource</c> (provider
/// System.Diagnostics.Metrics) asked for the named meters, whose events carry each time series'
/// value once per refresh. Kestrel's connections and queues and ASP.NET Core's request duration
/// live there since .NET 8, no longer in EventCounters. Each series (an instrument with one set
/// of tags) keeps its last value; a measurement is the sum over its instrument's series (the
/// connections of every endpoint), or for a latency quantile their largest.
/// </summary>
internal sealed class MeterReadings
{
    public const string Provider = "System.Diagnostics.Metrics";

    private static readonly (string Key, string Suffix)[] s_quantiles = [("0.5", "/50"), ("0.95", "/95"), ("0.99", "/99")];

    private readonly string _session = Guid.NewGuid().ToString("N");
    private readonly Dictionary<(string Name, string Tags), double> _sums = [];
    private readonly Dictionary<(string Name, string Tags), double> _largest = [];

    /// <summary>The EventPipe provider that asks for <paramref name="meters"/>' values every <paramref name="refreshSeconds"/>.</summary>
    public EventPipeProvider ProviderFor(IReadOnlyCollection<string> meters, double refreshSeconds) => new(Provider, EventLevel.Informational, 0x2, new Dictionary<string, string>
    {
        ["SessionId"] = _session,
        ["Metrics"] = string.Join(',', meters),
        ["RefreshInterval"] = refreshSeconds.ToString("0.###", CultureInfo.InvariantCulture),
        ["MaxTimeSeries"] = "1000",
        ["MaxHistograms"] = "20",
    });

    /// <summary>Takes one event of the provider (its name and its payload by field name); false when it is not a value of this session's.</summary>
    public bool Read(string eventName, Func<string, object?> field)
    {
        ArgumentNullException.ThrowIfNull(field);
        if (field("sessionId") as string != _session || field("meterName") is not string meter || field("instrumentName") is not string instrument)
        {
            return false;
        }

        var tags = field("tags") as string ?? "";
        switch (eventName)
        {
            case "GaugeValuePublished" when ServerCounterMeasures.MeterName(meter, instrument) is { } name && Number(field("lastValue")) is { } value:
                _sums[(name, tags)] = value;
                return true;
            case "UpDownCounterRateValuePublished" when ServerCounterMeasures.MeterName(meter, instrument) is { } name && Number(field("value")) is { } value:
                _sums[(name, tags)] = value;
                return true;
            case "HistogramValuePublished" when ServerCounterMeasures.MeterName(meter, instrument) is { } name && field("quantiles") is string quantiles:
                // Durations are published in seconds: kept in milliseconds.
                var scale = field("unit") as string == "s" ? 1000 : 1;
                foreach (var part in quantiles.Split(';', StringSplitOptions.RemoveEmptyEntries))
                {
                    var equals = part.IndexOf('=', StringComparison.Ordinal);
                    if (equals > 0 && s_quantiles.FirstOrDefault(q => q.Key == part[..equals]) is { Suffix: { } suffix } && Number(part[(equals + 1)..]) is { } seconds)
                    {
                        _largest[(name + suffix, tags)] = seconds * scale;
                    }
                }

                return true;
            default:
                return false;
        }
    }

    /// <summary>Adds each measurement's current value to <paramref name="gauges"/>.</summary>
    public void AddTo(Dictionary<string, double> gauges)
    {
        ArgumentNullException.ThrowIfNull(gauges);
        foreach (var group in _sums.GroupBy(p => p.Key.Name))
        {
            gauges[group.Key] = group.Sum(p => p.Value);
        }

        foreach (var group in _largest.GroupBy(p => p.Key.Name))
        {
            gauges[group.Key] = group.Max(p => p.Value);
        }
    }

    private static double? Number(object? raw) =>
        raw is string text && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value) ? value
        : raw is double d && double.IsFinite(d) ? d
        : null;
}

using System.Diagnostics.Tracing;
using System.Globalization;
using Benchmarks.Host.Measurements;
using Microsoft.Diagnostics.NETCore.Client;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The instruments of <c>System.Diagnostics.Metrics</c> meters a process publishes, read out of
/// process as dotnet-counters reads them: a session of <c>MetricsEventSource</c> (provider
/// System.Diagnostics.Metrics) asked for the named meters, whose events carry each time series'
/// value once per refresh. Kestrel's connections and queues live there since .NET 8, no longer in
/// EventCounters. Each series (an instrument with one set of tags) is the mean of the values it
/// published since the last time the readings were taken (its last value if it published none),
/// and a measurement is the sum over its instrument's series (the connections of every endpoint).
/// A count at one instant a second was too few: the commands a database scenario's server waited
/// on read 1, 3 and 15 in three seconds of one steady run, and the window's mean named the wrong
/// cause; read four times a second, a second's value is the mean of four instants.
/// Histograms are not read: the one that matters (ASP.NET Core's request duration) costs the
/// server allocations once listened to (<see cref="ServerCounterMeasures.Meters"/>).
/// </summary>
internal sealed class MeterReadings
{
    public const string Provider = "System.Diagnostics.Metrics";

    private readonly string _session = Guid.NewGuid().ToString("N");
    private readonly Dictionary<(string Name, string Tags), double> _last = [];
    private readonly Dictionary<(string Name, string Tags), (double Sum, int Count)> _since = [];

    /// <summary>The EventPipe provider that asks for <paramref name="meters"/>' values every <paramref name="refreshSeconds"/>.</summary>
    public EventPipeProvider ProviderFor(IReadOnlyCollection<string> meters, double refreshSeconds) =>
        new(Provider, EventLevel.Informational, 0x2, new Dictionary<string, string>
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
                Keep((name, tags), value);
                return true;
            case "UpDownCounterRateValuePublished" when ServerCounterMeasures.MeterName(meter, instrument) is { } name && Number(field("value")) is { } value:
                Keep((name, tags), value);
                return true;
            default:
                return false;
        }
    }

    /// <summary>
    /// Adds each measurement's value since the last call (the mean of what its series published
    /// since then) to <paramref name="gauges"/>, and starts the next such span.
    /// </summary>
    public void AddTo(Dictionary<string, double> gauges)
    {
        ArgumentNullException.ThrowIfNull(gauges);
        foreach (var group in _last.GroupBy(p => p.Key.Name))
        {
            gauges[group.Key] = group.Sum(p => _since.TryGetValue(p.Key, out var since) ? since.Sum / since.Count : p.Value);
        }

        _since.Clear();

        // An instrument never added to publishes no series: a pool nobody waited for is 0, not missing, once Npgsql is seen.
        if (gauges.ContainsKey(ServerCounterMeasures.DatabaseCommandsExecuting.Name))
        {
            gauges.TryAdd(ServerCounterMeasures.DatabasePendingConnections.Name, 0);
        }
    }

    private void Keep((string Name, string Tags) series, double value)
    {
        _last[series] = value;
        var (sum, count) = _since.GetValueOrDefault(series);
        _since[series] = (sum + value, count + 1);
    }

    private static double? Number(object? raw) =>
        raw is string text && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value) ? value
        : raw is double d && double.IsFinite(d) ? d
        : null;
}

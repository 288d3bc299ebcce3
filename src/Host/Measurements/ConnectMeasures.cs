using Benchmarks.Load.Statistics;
using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// A load's connections, declared once and made for each prefix: how many were opened in the
/// measured window (<c>…/connects</c>), how many per second (<c>…/connects/rate</c>), and the time
/// each took (<c>…/connect/mean</c>, <c>/min</c>, <c>/50</c>, <c>/90</c>, <c>/99</c>, <c>/max</c>, ms). HTTP
/// without keep-alive, WebSocket's connects with their handshake, and TCP's connects are instances.
/// </summary>
internal sealed class ConnectMeasures
{
    public static readonly ConnectMeasures Http = new("http", "Connections opened without keep-alive (one per request)", "Connect time without keep-alive (apart from the request's latency)", MeasurementRole.None);

    public static readonly ConnectMeasures WebSocket = new("ws", "WebSocket handshakes completed", "WebSocket connect + handshake time", MeasurementRole.Headline);

    public static readonly ConnectMeasures Tcp = new("tcp", "TCP connections established", "TCP connect time", MeasurementRole.None);

    /// <param name="prefix">The names' prefix (<c>tcp</c>).</param>
    /// <param name="counted">What is counted, for the descriptions.</param>
    /// <param name="timed">What is timed, for the descriptions.</param>
    /// <param name="rate">The rate's role: the headline of a load that only connects, or none.</param>
    public ConnectMeasures(string prefix, string counted, string timed, MeasurementRole rate)
    {
        Count = new($"{prefix}/connects", "count", Max, Neither, $"{counted} in the measured window");
        Rate = new($"{prefix}/connects/rate", "conn/s", Max, Higher, $"{counted} per second (conn/s)") { Role = rate };
        Mean = new($"{prefix}/connect/mean", "ms", Max, Lower, $"{timed}, mean (ms)");
        Min = new($"{prefix}/connect/min", "ms", Max, Lower, $"{timed}, min (ms)");
        P50 = new($"{prefix}/connect/50", "ms", Max, Lower, $"{timed}, 50th percentile (ms)");
        P90 = new($"{prefix}/connect/90", "ms", Max, Lower, $"{timed}, 90th percentile (ms)");
        P99 = new($"{prefix}/connect/99", "ms", Max, Lower, $"{timed}, 99th percentile (ms)");
        Maximum = new($"{prefix}/connect/max", "ms", Max, Lower, $"{timed}, max (ms)");
        All = [Count, Rate, Mean, Min, P50, P90, P99, Maximum];
    }

    public Measurement Count { get; }

    public Measurement Rate { get; }

    public Measurement Mean { get; }

    public Measurement Min { get; }

    public Measurement P50 { get; }

    public Measurement P90 { get; }

    public Measurement P99 { get; }

    public Measurement Maximum { get; }

    public IReadOnlyList<Measurement> All { get; }

    /// <summary>
    /// Writes the count, the rate when there is one, and the times when connections were opened in
    /// the window and timed (a load whose connections all opened in the warm-up has none).
    /// </summary>
    public void Add(IDictionary<string, double> values, long count, double? rate, LatencySummary? times)
    {
        ArgumentNullException.ThrowIfNull(values);
        values[Count.Name] = count;
        if (rate is { } perSecond)
        {
            values[Rate.Name] = perSecond;
        }

        if (count > 0 && times is not null)
        {
            values[Mean.Name] = times.Mean;
            values[Min.Name] = times.Min;
            values[P50.Name] = times.P50;
            values[P90.Name] = times.P90;
            values[P99.Name] = times.P99;
            values[Maximum.Name] = times.Max;
        }
    }
}

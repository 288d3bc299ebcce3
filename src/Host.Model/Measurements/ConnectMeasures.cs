using Benchmarks.Load.Statistics;
using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// A load's connections, declared once and made for each prefix: how many were opened in the
/// measured window (<c>…/connects</c>), how many per second (<c>…/connects/rate</c>), and the time
/// each took as a <see cref="LatencyMeasures"/> family of its own (<c>…/connect/mean</c>, <c>/50</c> …
/// <c>/max</c>, ms) with its minimum (<c>…/connect/min</c>). HTTP without keep-alive, WebSocket's
/// connects with their handshake, and TCP's connects are instances.
/// </summary>
internal sealed class ConnectMeasures
{
    public static readonly ConnectMeasures Http = new("http", "Connections opened without keep-alive (one per request)",
        "Connect time without keep-alive (apart from the request's latency)", MeasurementRole.None);

    public static readonly ConnectMeasures WebSocket = new("ws", "WebSocket handshakes completed", "WebSocket connect + handshake time",
        MeasurementRole.Headline);

    public static readonly ConnectMeasures Tcp = new("tcp", "TCP connections established", "TCP connect time", MeasurementRole.None);

    /// <summary>
    /// TLS handshakes of the HTTP load's connections opened in the window (every request's, without
    /// keep-alive): <c>http/tls/handshakes</c>, <c>http/tls/handshake/99</c> ….
    /// </summary>
    public static readonly ConnectMeasures TlsHandshake = new("http/tls", "TLS handshakes completed",
        "TLS handshake time, from the TCP connect's end (apart from the connect and the request)", MeasurementRole.None, "handshake");

    /// <param name="prefix">The names' prefix (<c>tcp</c>).</param>
    /// <param name="counted">What is counted, for the descriptions.</param>
    /// <param name="timed">What is timed, for the descriptions.</param>
    /// <param name="rate">The rate's role: the headline of a load that only connects, or none.</param>
    /// <param name="noun">What one is called in the names: <c>connect</c> (<c>…/connects</c>, <c>…/connect/99</c>) or <c>handshake</c>.</param>
    public ConnectMeasures(string prefix, string counted, string timed, MeasurementRole rate, string noun = "connect")
    {
        Count = new($"{prefix}/{noun}s", "count", Max, Neither, $"{counted} in the measured window");
        Rate = new($"{prefix}/{noun}s/rate", noun == "connect" ? "conn/s" : $"{noun}s/s", Max, Higher,
            $"{counted} per second ({(noun == "connect" ? "conn" : noun + "s")}/s)") { Role = rate };
        Times = new LatencyMeasures($"{prefix}/{noun}", timed, MeasurementRole.None);
        Min = new($"{prefix}/{noun}/min", "ms", Max, Lower, $"{timed}, min (ms)");
        All = [Count, Rate, .. Times.All, Min];
    }

    public Measurement Count { get; }

    public Measurement Rate { get; }

    /// <summary>The connect times' distribution.</summary>
    public LatencyMeasures Times { get; }

    public Measurement Min { get; }

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
            Times.Add(values, times);
            values[Min.Name] = times.Min;
        }
    }
}

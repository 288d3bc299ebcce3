using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// The open model's measurements (<c>--rate</c>), declared once and made for each load that takes a
/// rate: the requested rate and the shortfall of the achieved one, what fell due, what left late
/// and why, the backlog at the window's edges, and the latencies from the send rather than the due
/// time. HTTP names them after requests and latency (<c>http/requests/late</c>,
/// <c>http/latency/uncorrected/99</c>), WebSocket after messages and round trips
/// (<c>ws/messages/late</c>, <c>ws/rtt/uncorrected/99</c>), TCP after requests and round trips
/// (<c>tcp/requests/late</c>, <c>tcp/rtt/uncorrected/99</c>); the next protocol is one more instance.
/// </summary>
internal sealed class OpenModelMeasures
{
    // The achieved and completed names are the protocols' own (HttpMeasures, WebSocketMeasures), given
    // as names: those classes list this family among theirs, so it cannot read them while they start.
    public static readonly OpenModelMeasures Http = new("http", "requests", "request", "req/s", "latency", "latency", "http/rps/mean", "http/requests");

    public static readonly OpenModelMeasures WebSocket = new("ws", "messages", "message", "msg/s", "rtt", "round trip", "ws/messages/rate", "ws/messages");

    public static readonly OpenModelMeasures Tcp = new("tcp", "requests", "request", "req/s", "rtt", "round trip", "tcp/responses/rate", "tcp/responses");

    private static readonly OpenModelMeasures[] s_families = [Http, WebSocket, Tcp];

    private OpenModelMeasures(string prefix, string items, string item, string unit, string latency, string latencyWords, string achieved, string completed)
    {
        Achieved = achieved;
        Completed = completed;
        Unit = unit;
        var from = $"{prefix}/{latency}/uncorrected";
        RateRequested = new($"{prefix}/rate/requested", unit, Max, Neither, $"Open model: the requested rate ({unit}); {achieved} is the achieved one");
        RateShortfall = new($"{prefix}/rate/shortfall", "%", Max, Lower,
            "Open model: how far the achieved rate fell below the requested (% of the requested; 0 when met)");
        Due = new($"{prefix}/{items}/due", "count", Max, Neither, $"Open model: {items} whose due time fell in the measured window");
        Late = new($"{prefix}/{items}/late", "count", Max, Lower,
            $"Open model: {items} sent more than 5 ms after their due time (every connection was busy, or the load fell behind)");
        LateByLoad = new($"{prefix}/{items}/late/load", "count", Max, Lower,
            $"Open model: of {prefix}/{items}/late, those sent late although a connection was free for them (the load generator fell behind, not the pool)");
        BacklogAtStart = new($"{prefix}/{items}/backlog/start", "count", Max, Lower,
            $"Open model: {items} due but not yet sent when the window opened (the warm-up waits up to its own length again, at most 10 s, " +
            $"for its backlog to drain to 5 ms worth of {items})");
        Backlog = new($"{prefix}/{items}/backlog", "count", Max, Lower, $"Open model: {items} due but not yet sent when the window ended");
        Uncorrected = new(from, $"Open model: {latencyWords} from the send, not the due time", MeasurementRole.None);
        All = [RateRequested, RateShortfall, Due, Late, LateByLoad, BacklogAtStart, Backlog, .. Uncorrected.All];
    }

    /// <summary>The name of the achieved rate the requested one is held against (<c>http/rps/mean</c>, <c>ws/messages/rate</c>).</summary>
    public string Achieved { get; }

    /// <summary>The name of what completed in the window (<c>http/requests</c>, <c>ws/messages</c>).</summary>
    public string Completed { get; }

    public string Unit { get; }

    public Measurement RateRequested { get; }

    public Measurement RateShortfall { get; }

    public Measurement Due { get; }

    public Measurement Late { get; }

    public Measurement LateByLoad { get; }

    public Measurement BacklogAtStart { get; }

    public Measurement Backlog { get; }

    /// <summary>The latencies from each send rather than its due time (what a closed loop would have reported).</summary>
    public LatencyMeasures Uncorrected { get; }

    public IReadOnlyList<Measurement> All { get; }

    /// <summary>The family of the load that made a run: the one whose requested rate it reports, else HTTP's.</summary>
    public static OpenModelMeasures Of(IReadOnlyDictionary<string, double> values)
    {
        ArgumentNullException.ThrowIfNull(values);
        return s_families.FirstOrDefault(f => values.ContainsKey(f.RateRequested.Name)) ?? Http;
    }
}

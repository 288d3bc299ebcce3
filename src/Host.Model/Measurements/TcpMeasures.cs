using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>What the TCP load (persistent and churn; the echo or a scenario's protocol) reports once, over its measured window.</summary>
internal static class TcpMeasures
{
    public static readonly Measurement ResponsesRate = new("tcp/responses/rate", "resp/s", Max, Higher,
        "TCP answers received complete and as expected (an echo byte-exact) per second (resp/s)", Sum) { Role = MeasurementRole.Headline };
    public static readonly Measurement RequestsRate = new("tcp/requests/rate", "req/s", Max, Higher, "TCP requests sent per second (req/s)");
    public static readonly Measurement Responses = new("tcp/responses", "count", Max, Higher,
        "TCP answers received complete and as expected (an echo byte-exact)") { Role = MeasurementRole.Completed };
    public static readonly Measurement Requests = new("tcp/requests", "count", Max, Neither, "TCP requests sent in the measured window");
    public static readonly Measurement Unfinished = new("tcp/unfinished", "count", Max, Neither, "TCP requests still in flight when the run stopped");
    public static readonly Measurement Errors = new("tcp/errors", "count", Max, Lower,
        "TCP failures: requests whose answer failed and connects that failed, all causes") { Role = MeasurementRole.Failures };
    public static readonly Measurement ErrorsRefused = new("tcp/errors/refused", "count", Max, Lower, "TCP connects refused");
    public static readonly Measurement ErrorsReset = new("tcp/errors/reset", "count", Max, Lower, "TCP requests and connects ended by a reset");
    public static readonly Measurement ErrorsTimeout = new("tcp/errors/timeout", "count", Max, Lower, "TCP requests and connects that outlasted the timeout");
    public static readonly Measurement ErrorsShortEcho = new("tcp/errors/short-echo", "count", Max, Lower,
        "TCP answers cut short: the connection closed or timed out part-way through");
    public static readonly Measurement ErrorsMismatch = new("tcp/errors/mismatch", "count", Max, Lower,
        "TCP answers that are not the one expected (an echo with other bytes than were sent)");
    public static readonly Measurement ErrorsPorts = new("tcp/errors/ports", "count", Max, Lower,
        "TCP connects that found no local port or descriptor (ports in TIME_WAIT)");
    public static readonly Measurement ErrorsOther = new("tcp/errors/other", "count", Max, Lower, "TCP failures of any other cause");
    public static readonly Measurement RttMean = LatencyMeasures.Tcp.Mean;
    public static readonly Measurement Rtt50 = LatencyMeasures.Tcp.P50;
    public static readonly Measurement Rtt90 = LatencyMeasures.Tcp.P90;
    public static readonly Measurement Rtt99 = LatencyMeasures.Tcp.P99;
    public static readonly Measurement RttMax = LatencyMeasures.Tcp.Maximum;

    /// <summary>The error count of each failure cause, by the cause's name.</summary>
    public static IReadOnlyDictionary<string, Measurement> ErrorsByCause { get; } = new Dictionary<string, Measurement>(StringComparer.Ordinal)
    {
        ["refused"] = ErrorsRefused, ["reset"] = ErrorsReset, ["timeout"] = ErrorsTimeout, ["short-echo"] = ErrorsShortEcho,
        ["mismatch"] = ErrorsMismatch, ["ports"] = ErrorsPorts, ["other"] = ErrorsOther,
    };


    public static IReadOnlyList<Measurement> All { get; } =
    [
        ResponsesRate, RequestsRate, Responses, Requests, Unfinished, Errors, ErrorsRefused, ErrorsReset, ErrorsTimeout, ErrorsShortEcho, ErrorsMismatch,
        ErrorsPorts, ErrorsOther,
        .. ConnectMeasures.Tcp.All, .. LatencyMeasures.Tcp.All, .. LatencyMeasures.TcpMerged.All, .. OpenModelMeasures.Tcp.All,
    ];
}

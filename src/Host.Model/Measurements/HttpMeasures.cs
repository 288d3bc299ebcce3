using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// What an HTTP load reports once, over its measured window (crank's <c>http/…</c> names; crank's
/// load jobs declare such once-reported values with aggregate Max), and its per-second rate.
/// </summary>
internal static class HttpMeasures
{
    public static readonly Measurement RpsMean = new("http/rps/mean", "req/s", Max, Higher,
        "Requests/sec (responses completed over the measured window)") { Role = MeasurementRole.Headline, Label = "Requests/sec" };
    public static readonly Measurement Requests = new("http/requests", "count", Max, Higher,
        "Requests completed (good + bad responses)") { Role = MeasurementRole.Completed };
    public static readonly Measurement BadResponses = new("http/requests/badresponses", "count", Max, Lower,
        "Bad responses (non-2xx/3xx, invalid body, malformed)") { Role = MeasurementRole.Failures, AmongCompleted = true };
    public static readonly Measurement Errors = new("http/requests/errors", "count", Max, Lower,
        "Socket errors (connect, read, write, timeout)") { Role = MeasurementRole.Failures };
    public static readonly Measurement Lost = new("http/requests/lost", "count", Max, Lower,
        "Requests in flight on a connection that failed") { Role = MeasurementRole.Failures };
    public static readonly Measurement LatencyMean = LatencyMeasures.Http.Mean;
    public static readonly Measurement LatencyStdev = LatencyMeasures.Http.StandardDeviation;
    public static readonly Measurement Latency50 = LatencyMeasures.Http.P50;
    public static readonly Measurement Latency75 = LatencyMeasures.Http.P75;
    public static readonly Measurement Latency90 = LatencyMeasures.Http.P90;
    public static readonly Measurement Latency99 = LatencyMeasures.Http.P99;
    public static readonly Measurement Latency999 = LatencyMeasures.Http.P999;
    public static readonly Measurement LatencyMax = LatencyMeasures.Http.Maximum;
    public static readonly Measurement Throughput = new("http/throughput", "MB/s", Max, Higher, "Throughput received (MB/s)");
    public static readonly Measurement Bytes = new("http/bytes", "bytes", Max, Neither,
        "Bytes received in responses over the measured window (headers and bodies)");


    public static readonly Measurement FirstByteMean = new("http/ttfb/mean", "ms", Max, Lower,
        "Time from a request's send to its response's first byte without keep-alive, mean (ms)");
    public static readonly Measurement FirstByte50 = new("http/ttfb/50", "ms", Max, Lower, "Time to first byte without keep-alive, 50th percentile (ms)");
    public static readonly Measurement HandshakeErrors = new("http/tls/handshake/errors", "count", Max, Lower,
        "TLS handshakes that failed in the measured window (also counted as connect errors)");

    public static readonly Measurement FirstByte99 = new("http/ttfb/99", "ms", Max, Lower, "Time to first byte without keep-alive, 99th percentile (ms)");

    /// <summary>HTTP/2's flow control as a limit: the verdict names it when no CPU was (<see cref="Verdicts.BottleneckRule"/>).</summary>
    public static readonly Measurement FlowControlWait = new("http/flow-control/wait", "%", Max, Lower,
        "HTTP/2: share of the connections' time in the window a request or message had a stream free but waited for the server's flow-control window " +
        "(WINDOW_UPDATE)") { Label = "HTTP/2 flow-control wait (%)" };

    // The open model (--rate): the latencies above are then timed from each request's due time
    // (corrected for coordinated omission); the rest of its report is OpenModelMeasures.Http.

    public static IReadOnlyList<Measurement> All { get; } =
    [
        RpsMean, Requests, BadResponses, Errors, Lost, .. LatencyMeasures.Http.All, .. LatencyMeasures.HttpMerged.All, Throughput, Bytes,
        .. ConnectMeasures.Http.All, FirstByteMean, FirstByte50, FirstByte99, .. ConnectMeasures.TlsHandshake.All, HandshakeErrors, FlowControlWait,
        .. OpenModelMeasures.Http.All,
    ];
}

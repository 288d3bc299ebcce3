using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>What the WebSocket loads (echo, connect, idle, broadcast) report once, over their measured window.</summary>
internal static class WebSocketMeasures
{
    public static readonly Measurement MessagesRate = new("ws/messages/rate", "msg/s", Max, Higher,
        "WebSocket echo replies per second that followed the rule (msg/s)") { Role = MeasurementRole.Headline };
    public static readonly Measurement Messages = new("ws/messages", "count", Max, Higher,
        "WebSocket echo replies that followed the rule") { Role = MeasurementRole.Completed };
    public static readonly Measurement MessagesBad = new("ws/messages/bad", "count", Max, Lower,
        "WebSocket replies that broke the echo rule") { Role = MeasurementRole.Failures };
    public static readonly Measurement MessagesLost = new("ws/messages/lost", "count", Max, Lower,
        "WebSocket messages in flight on a connection that failed") { Role = MeasurementRole.Failures };
    public static readonly Measurement MessagesSent = new("ws/messages/sent", "count", Max, Neither,
        "WebSocket echo messages sent in the measured window: replies that followed the rule, broke it, were lost or were unfinished");
    public static readonly Measurement MessagesUnfinished = new("ws/messages/unfinished", "count", Max, Neither,
        "WebSocket echo messages sent in the measured window and still unanswered when the run stopped");
    public static readonly Measurement Errors = new("ws/errors", "count", Max, Lower,
        "WebSocket connection errors (refused, reset, handshake, abnormal close, timeout)") { Role = MeasurementRole.Failures };
    public static readonly Measurement RttMean = LatencyMeasures.WebSocket.Mean;
    public static readonly Measurement Rtt50 = LatencyMeasures.WebSocket.P50;
    public static readonly Measurement Rtt90 = LatencyMeasures.WebSocket.P90;
    public static readonly Measurement Rtt95 = new("ws/rtt/95", "ms", Max, Lower, "WebSocket round trip, 95th percentile (ms)");
    public static readonly Measurement Rtt99 = LatencyMeasures.WebSocket.P99;
    public static readonly Measurement RttMax = LatencyMeasures.WebSocket.Maximum;
    public static readonly Measurement IdleConnections = new("ws/idle/connections", "count", Max, Neither,
        "Idle WebSocket connections held open") { Role = MeasurementRole.Headline };
    public static readonly Measurement IdleMemoryPerConnection = new("ws/idle/memory-per-connection", "KB", Max, Lower,
        "Load generator resident memory per idle WebSocket connection (KB)");
    public static readonly Measurement BroadcastClients = new("ws/broadcast/clients", "count", Max, Higher,
        "Largest client count whose broadcast RTT stayed under the limit") { Role = MeasurementRole.Headline };
    public static readonly Measurement BroadcastSteps = new("ws/broadcast/steps", "count", Max, Neither, "Broadcast steps run", Max);
    public static readonly Measurement BroadcastExpected = new("ws/broadcast/expected", "count", Max, Neither,
        "Broadcasts expected: sum of clients x sample size over the steps");
    public static readonly Measurement BroadcastReceived = new("ws/broadcast/received", "count", Max, Neither, "Broadcasts received by all clients");
    public static readonly Measurement BroadcastRttLimit = new("ws/broadcast/rtt/limit-percentile", "ms", Max, Lower,
        "Broadcast RTT at the limit percentile, last step (ms)");
    public static readonly Measurement BroadcastRtt50 = new("ws/broadcast/rtt/50", "ms", Max, Lower, "Broadcast RTT median, last step (ms)");
    public static readonly Measurement BroadcastRttMax = new("ws/broadcast/rtt/max", "ms", Max, Lower, "Broadcast RTT max, last step (ms)");
    public static readonly Measurement Handshakes = new("ws/handshakes", "count", Max, Neither,
        "WebSocket handshakes completed in the whole run, warm-up included");
    public static readonly Measurement Connect95 = new("ws/connect/95", "ms", Max, Lower, "WebSocket connect + handshake time, 95th percentile (ms)");


    public static IReadOnlyList<Measurement> All { get; } =
    [
        MessagesRate, Messages, MessagesBad, MessagesLost, MessagesSent, MessagesUnfinished, Errors, .. LatencyMeasures.WebSocket.All,
        .. LatencyMeasures.WebSocketMerged.All, Rtt95, IdleConnections, IdleMemoryPerConnection,
        BroadcastClients, BroadcastSteps, BroadcastExpected, BroadcastReceived, BroadcastRttLimit, BroadcastRtt50, BroadcastRttMax,
        .. ConnectMeasures.WebSocket.All, Handshakes, Connect95,
        .. OpenModelMeasures.WebSocket.All,
    ];
}

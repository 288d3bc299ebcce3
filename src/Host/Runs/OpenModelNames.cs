using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.Runs;

/// <summary>The open model's measurement names for the load that made a run: HTTP requests or WebSocket messages.</summary>
internal sealed record OpenModelNames(string Requested, string Achieved, string Count, string Late, string LateByLoad, string Backlog, string Unit)
{
    private static readonly OpenModelNames s_http = new(HttpMeasures.RateRequested.Name, HttpMeasures.RpsMean.Name, HttpMeasures.Requests.Name, HttpMeasures.Late.Name, HttpMeasures.LateByLoad.Name, HttpMeasures.Backlog.Name, "req/s");
    private static readonly OpenModelNames s_ws = new(WebSocketMeasures.RateRequested.Name, WebSocketMeasures.MessagesRate.Name, WebSocketMeasures.Messages.Name, WebSocketMeasures.Late.Name, WebSocketMeasures.LateByLoad.Name, WebSocketMeasures.Backlog.Name, "msg/s");

    public static OpenModelNames Of(IReadOnlyDictionary<string, double> values) => values.ContainsKey(WebSocketMeasures.RateRequested.Name) ? s_ws : s_http;
}

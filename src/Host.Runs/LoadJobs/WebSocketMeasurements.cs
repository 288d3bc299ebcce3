using Benchmarks.Load.WebSockets;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.LoadJobs;

/// <summary>A WebSocket load result under the <c>ws/...</c> names of <see cref="MeasurementCatalog"/>.</summary>
internal static class WebSocketMeasurements
{
    public static SortedDictionary<string, double> From(BroadcastResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var m = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            [WebSocketMeasures.BroadcastClients.Name] = result.MaxClientsUnderLimit,
            [WebSocketMeasures.BroadcastSteps.Name] = result.Steps.Count,
            [WebSocketMeasures.BroadcastExpected.Name] = result.ExpectedBroadcasts,
            [WebSocketMeasures.BroadcastReceived.Name] = result.ReceivedBroadcasts,
            [WebSocketMeasures.Errors.Name] = result.Errors,
        };
        if (result.Steps.Count > 0)
        {
            var last = result.Steps[^1];
            m[WebSocketMeasures.BroadcastRttLimit.Name] = last.PercentileRtt;
            m[WebSocketMeasures.BroadcastRtt50.Name] = last.MedianRtt;
            m[WebSocketMeasures.BroadcastRttMax.Name] = last.MaxRtt;
        }

        return m;
    }

    public static SortedDictionary<string, double> From(WebSocketLoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var m = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            [WebSocketMeasures.Errors.Name] = result.Errors,
            [WebSocketMeasures.Handshakes.Name] = result.Handshakes,
        };
        WindowMeasurements.Add(m, result, result.MessagesPerSecond, OpenModelMeasures.WebSocket);

        // Echo connections open during warm-up: handshake times exist only when some happened in the window.
        ConnectMeasures.WebSocket.Add(m, result.Connects, result.Mode == WebSocketLoadMode.Connect ? result.ConnectsPerSecond : null, result.Connect);
        if (result.Connects > 0)
        {
            m[WebSocketMeasures.Connect95.Name] = result.ConnectP95;
        }

        if (result.Mode == WebSocketLoadMode.Idle)
        {
            m[WebSocketMeasures.IdleConnections.Name] = result.OpenConnections;
            m[WebSocketMeasures.IdleMemoryPerConnection.Name] = result.MemoryPerConnection / 1024;
            return m;
        }

        if (result.Mode == WebSocketLoadMode.Connect)
        {
            return m;
        }

        m[WebSocketMeasures.MessagesRate.Name] = result.MessagesPerSecond;
        m[WebSocketMeasures.Messages.Name] = result.Good;
        m[WebSocketMeasures.MessagesBad.Name] = result.Bad;
        m[WebSocketMeasures.MessagesLost.Name] = result.Lost;
        m[WebSocketMeasures.MessagesSent.Name] = result.Sent;
        m[WebSocketMeasures.MessagesUnfinished.Name] = result.Unfinished;
        LatencyMeasures.WebSocket.Add(m, result.RoundTrip);
        m[WebSocketMeasures.Rtt95.Name] = result.RoundTripP95;
        return m;
    }
}

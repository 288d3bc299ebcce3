using Benchmarks.Load.WebSockets;

namespace Benchmarks.Host.Runs;

/// <summary>A WebSocket load result under the <c>ws/...</c> names of <see cref="MeasurementCatalog"/>.</summary>
internal static class WebSocketMeasurements
{
    public static SortedDictionary<string, double> From(BroadcastResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var m = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            ["ws/broadcast/clients"] = result.MaxClientsUnderLimit,
            ["ws/broadcast/steps"] = result.Steps.Count,
            ["ws/broadcast/expected"] = result.ExpectedBroadcasts,
            ["ws/broadcast/received"] = result.ReceivedBroadcasts,
            ["ws/errors"] = result.Errors,
        };
        if (result.Steps.Count > 0)
        {
            var last = result.Steps[^1];
            m["ws/broadcast/rtt/limit-percentile"] = last.PercentileRtt;
            m["ws/broadcast/rtt/50"] = last.MedianRtt;
            m["ws/broadcast/rtt/max"] = last.MaxRtt;
        }

        return m;
    }

    public static SortedDictionary<string, double> From(WebSocketLoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var m = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            ["ws/errors"] = result.Errors,
            ["ws/connects"] = result.Connects,
            ["ws/handshakes"] = result.Handshakes,
        };
        if (result.CpuWindowSeconds > 0)
        {
            var capacity = result.CpuWindowSeconds * Environment.ProcessorCount;
            m["load/cpu/user"] = result.CpuUserSeconds / capacity * 100;
            m["load/cpu/kernel"] = result.CpuKernelSeconds / capacity * 100;
        }

        // Echo connections open during warm-up: handshake times exist only when some happened in the window.
        if (result.Connects > 0)
        {
            m["ws/connect/mean"] = result.Connect.Mean;
            m["ws/connect/min"] = result.Connect.Min;
            m["ws/connect/50"] = result.Connect.P50;
            m["ws/connect/90"] = result.Connect.P90;
            m["ws/connect/95"] = result.ConnectP95;
            m["ws/connect/max"] = result.Connect.Max;
        }

        if (result.Mode == WebSocketLoadMode.Idle)
        {
            m["ws/idle/connections"] = result.OpenConnections;
            m["ws/idle/memory-per-connection"] = result.MemoryPerConnection / 1024;
            return m;
        }

        if (result.Mode == WebSocketLoadMode.Connect)
        {
            m["ws/connects/rate"] = result.ConnectsPerSecond;
            return m;
        }

        m["ws/messages/rate"] = result.MessagesPerSecond;
        m["ws/messages"] = result.Good;
        m["ws/messages/bad"] = result.Bad;
        m["ws/messages/lost"] = result.Lost;
        m["ws/rtt/mean"] = result.RoundTrip.Mean;
        m["ws/rtt/50"] = result.RoundTrip.P50;
        m["ws/rtt/90"] = result.RoundTrip.P90;
        m["ws/rtt/95"] = result.RoundTripP95;
        m["ws/rtt/99"] = result.RoundTrip.P99;
        m["ws/rtt/max"] = result.RoundTrip.Max;
        return m;
    }
}

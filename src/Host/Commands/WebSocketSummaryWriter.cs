using System.Globalization;
using Benchmarks.Load.WebSockets;

namespace Benchmarks.Host.Commands;

/// <summary>A WebSocket load result in the terms the k6 comparison reports.</summary>
internal static class WebSocketSummaryWriter
{
    public static void Write(TextWriter writer, WebSocketLoadResult r)
    {
        var c = CultureInfo.InvariantCulture;
        writer.WriteLine(string.Create(c, $"WebSocket {r.Mode} ({r.Message}) @ {r.Url}, {r.Connections} connections, {r.ElapsedSeconds:0.00}s"));
        if (r.Mode == WebSocketLoadMode.Idle)
        {
            writer.WriteLine(string.Create(c,
                $"  idle connections.....: {r.OpenConnections}, {r.MemoryPerConnection / 1024:0.0} KB resident and {r.ManagedMemoryPerConnection / 1024:0.0} " +
                $"KB managed per connection (load process)"));
        }
        else if (r.Mode != WebSocketLoadMode.Connect)
        {
            writer.WriteLine(string.Create(c, $"  ws_msgs_received.....: {r.Good} ({r.MessagesPerSecond:0.00}/s), sent {r.Sent}, bad {r.Bad}, lost {r.Lost}"));
            writer.WriteLine(string.Create(c,
                $"  round trip...........: avg={r.RoundTrip.Mean:0.000}ms p50={r.RoundTrip.P50:0.000}ms p90={r.RoundTrip.P90:0.000}ms " +
                $"p95={r.RoundTripP95:0.000}ms p99={r.RoundTrip.P99:0.000}ms max={r.RoundTrip.Max:0.000}ms"));
            OpenModelSummaryWriter.Write(writer, r, r.MessagesPerSecond, "message");
        }

        writer.WriteLine(string.Create(c, $"  ws_sessions..........: {r.Connects} in the window ({r.ConnectsPerSecond:0.00}/s), {r.Handshakes} in all"));
        writer.WriteLine(string.Create(c,
            $"  ws_connecting........: avg={r.Connect.Mean:0.000}ms min={r.Connect.Min:0.000}ms med={r.Connect.P50:0.000}ms max={r.Connect.Max:0.000}ms " +
            $"p(90)={r.Connect.P90:0.000}ms p(95)={r.ConnectP95:0.000}ms"));
        writer.WriteLine(string.Create(c, $"  errors...............: {r.Errors}{(r.FirstError is null ? "" : $" (first: {r.FirstError})")}"));
    }
}

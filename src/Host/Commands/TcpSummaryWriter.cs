using System.Globalization;
using Benchmarks.Load.Tcp;

namespace Benchmarks.Host.Commands;

/// <summary>A TCP load result in the Go tcp_bencher's terms (Speed, Requests, Responses), with failures by cause and latencies.</summary>
internal static class TcpSummaryWriter
{
    public static void Write(TextWriter writer, TcpLoadResult r)
    {
        var c = CultureInfo.InvariantCulture;
        var shape = r.Mode == TcpLoadMode.Churn ? $"churn, {r.Connections} clients" : $"persistent, {r.Connections} connections, window {r.Window}";
        var requests = r.Protocol == TcpLoadResult.Echo ? $"{r.MessageSize}-byte messages" : $"requests of {r.MessageSize} bytes at most";
        writer.WriteLine(string.Create(c, $"TCP {r.Protocol} @ {r.Url}: {shape}, {requests}{(r.LingerZero ? ", SO_LINGER 0" : "")}, {r.ElapsedSeconds:0.00}s"));
        writer.WriteLine(string.Create(c, $"Speed: {r.RequestsPerSecond:0} request/sec, {r.ResponsesPerSecond:0} response/sec"));
        writer.WriteLine(string.Create(c, $"Requests: {r.Sent}"));
        writer.WriteLine(string.Create(c, $"Responses: {r.Answered}"));
        var failed = string.Join(", ", r.Failed.Where(f => f.Value > 0).Select(f => $"{f.Key} {f.Value}"));
        writer.WriteLine(string.Create(c, $"  failed...............: {r.FailedTotal}{(failed.Length > 0 ? $" ({failed})" : "")}, unfinished {r.Unfinished}"));
        writer.WriteLine(string.Create(c,
            $"  round trip...........: avg={r.RoundTrip.Mean:0.000}ms p50={r.RoundTrip.P50:0.000}ms p90={r.RoundTrip.P90:0.000}ms " +
            $"p99={r.RoundTrip.P99:0.000}ms max={r.RoundTrip.Max:0.000}ms"));
        OpenModelSummaryWriter.Write(writer, r, r.ResponsesPerSecond, "request");
        var connectFailed = string.Join(", ", r.ConnectFailed.Where(f => f.Value > 0).Select(f => $"{f.Key} {f.Value}"));
        writer.WriteLine(string.Create(c,
            $"  connects.............: {r.Connects} ({r.ConnectsPerSecond:0.00}/s), " +
            $"failed {r.ConnectFailedTotal}{(connectFailed.Length > 0 ? $" ({connectFailed})" : "")}"));
        writer.WriteLine(string.Create(c,
            $"  connect time.........: avg={r.Connect.Mean:0.000}ms p50={r.Connect.P50:0.000}ms p99={r.Connect.P99:0.000}ms max={r.Connect.Max:0.000}ms"));
        if (r.FirstError is not null)
        {
            writer.WriteLine($"  first error..........: {r.FirstError}");
        }
    }
}

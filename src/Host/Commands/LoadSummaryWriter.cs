using System.Globalization;
using Benchmarks.Load;
using Benchmarks.Load.Http;

namespace Benchmarks.Host.Commands;

/// <summary>A load result in the layout wrk users read.</summary>
internal static class LoadSummaryWriter
{
    public static void Write(TextWriter writer, LoadResult result, TimeSpan duration)
    {
        var c = CultureInfo.InvariantCulture;
        writer.WriteLine(string.Create(c, $"Running {duration.TotalSeconds:0.###}s test @ {result.Url}"));
        writer.WriteLine(result.Http2
            ? string.Create(c,
                $"  {result.Threads} threads and {result.Connections} connections, {result.PipelineDepth} streams per connection (HTTP/2, " +
                $"{result.Engine} engine)")
            : string.Create(c,
                $"  {result.Threads} threads and {result.Connections} connections, pipeline depth {result.PipelineDepth} ({result.Engine} engine)"));
        writer.WriteLine("  Thread Stats   Avg      Stdev     Max");
        writer.WriteLine(string.Create(c, $"    Latency   {Ms(result.Latency.Mean),8} {Ms(result.Latency.StandardDeviation),8} {Ms(result.Latency.Max),8}"));
        writer.WriteLine("  Latency Distribution");
        writer.WriteLine(string.Create(c, $"     50%   {Ms(result.Latency.P50),8}"));
        writer.WriteLine(string.Create(c, $"     75%   {Ms(result.Latency.P75),8}"));
        writer.WriteLine(string.Create(c, $"     90%   {Ms(result.Latency.P90),8}"));
        writer.WriteLine(string.Create(c, $"     99%   {Ms(result.Latency.P99),8}"));
        writer.WriteLine(string.Create(c, $"   99.9%   {Ms(result.Latency.P999),8}"));
        writer.WriteLine(string.Create(c, $"  {result.Requests} requests in {result.ElapsedSeconds:0.00}s, {result.BytesReceived / 1_000_000.0:0.00}MB read"));
        if (result.Bad > 0)
        {
            writer.WriteLine(string.Create(c, $"  Non-2xx or 3xx responses (or invalid bodies): {result.Bad}"));
        }

        if (result.Errors.Total > 0 || result.Lost > 0)
        {
            writer.WriteLine(string.Create(c,
                $"  Socket errors: connect {result.Errors.Connect}, read {result.Errors.Read}, write {result.Errors.Write}, timeout {result.Errors.Timeout}"));
            writer.WriteLine(string.Create(c, $"  Requests lost in flight: {result.Lost}"));
        }

        if (!result.KeepAlive && result.Connect is { } connect && result.FirstByte is { } firstByte)
        {
            writer.WriteLine(string.Create(c, $"  Without keep-alive: {result.Connects} connections ({result.ConnectsPerSecond:0.00}/s)"));
            writer.WriteLine(string.Create(c, $"    Connect       avg {Ms(connect.Mean),8}  p50 {Ms(connect.P50),8}  p99 {Ms(connect.P99),8}"));
            writer.WriteLine(string.Create(c, $"    First byte    avg {Ms(firstByte.Mean),8}  p50 {Ms(firstByte.P50),8}  p99 {Ms(firstByte.P99),8}"));
        }

        if (result.Tls is { } tls)
        {
            writer.WriteLine(string.Create(c,
                $"  TLS: {tls}; {result.Handshakes} handshakes in the window ({result.HandshakesPerSecond:0.00}/s), {result.HandshakeErrors} failed"));
            if (result.Handshake is { } handshake)
            {
                writer.WriteLine(string.Create(c, $"    Handshake     avg {Ms(handshake.Mean),8}  p50 {Ms(handshake.P50),8}  p99 {Ms(handshake.P99),8}"));
            }
        }

        if (result.RequestedRate is { } requested)
        {
            writer.WriteLine("  Open model: latency above is from each request's due time (corrected for coordinated omission)");
            if (result.Uncorrected is { } uncorrected)
            {
                writer.WriteLine(string.Create(c,
                    $"    From the send (uncorrected)  p50 {Ms(uncorrected.P50),8}  p90 {Ms(uncorrected.P90),8}  p99 {Ms(uncorrected.P99),8}  max " +
                    $"{Ms(uncorrected.Max),8}"));
            }

            writer.WriteLine(string.Create(c,
                $"    Requested {requested:0.00} req/s, " +
                $"achieved {result.RequestsPerSecond:0.00} ({(result.RequestsPerSecond - requested) / requested * 100:+0.0;-0.0;0.0}%); {result.Due} due, " +
                $"{result.Late} sent late (> {DefaultLoad.LateAfter.TotalMilliseconds:0} ms; {result.LateByLoad} of them with a connection free), " +
                $"{result.BacklogAtStart} waiting when the window opened and {result.Backlog} at its end"));
            if (result.IsShort)
            {
                writer.WriteLine(string.Create(c, $"    SHORT of the requested rate by more than {DefaultLoad.ShortfallLimit * 100:0}%: {ShortCause(result)}"));
            }
        }

        writer.WriteLine(string.Create(c, $"Requests/sec: {result.RequestsPerSecond,12:0.00}"));
        if (result.MessagesPerSecondPerStream is { } perStream)
        {
            writer.WriteLine(string.Create(c,
                $"  per stream: {perStream,12:0.00} messages/sec ({result.GrpcCall}, {result.Connections * result.PipelineDepth} streams)"));
        }

        if (result.RequestMessagesPerSecond is { } sent)
        {
            writer.WriteLine(string.Create(c, $"  requests:   {sent,12:0.00} messages/sec (client-streaming, {result.GrpcMessagesPerCall} a call)"));
        }

        writer.WriteLine(string.Create(c, $"Transfer/sec: {result.ThroughputMegabytesPerSecond,10:0.00}MB"));
        if (result.Requests > 0)
        {
            var perRequest = (result.CpuUserSeconds + result.CpuKernelSeconds) / result.Requests * 1_000_000;
            writer.WriteLine(string.Create(c,
                $"Client CPU:   {result.CpuUserSeconds:0.00}s user, {result.CpuKernelSeconds:0.00}s kernel, " +
                $"{perRequest:0.000}us per request{(result.ThreadsBusyPercent is { } busy ? $"; its threads busy {busy:0}% of the window" : "")}"));
        }
    }

    /// <summary>Which side could not keep up, from the load's own CPU over the window.</summary>
    private static string ShortCause(LoadResult result)
    {
        // Environment.ProcessorCount is the CPUs this process may run on (its affinity), not the machine's.
        var cpus = Math.Max(1, Environment.ProcessorCount);
        var busy = result.CpuWindowSeconds > 0 ? (result.CpuUserSeconds + result.CpuKernelSeconds) / result.CpuWindowSeconds / cpus * 100 : 0;
        return busy >= 90 || result.ThreadsBusyPercent >= 90
            ? string.Create(CultureInfo.InvariantCulture,
                $"the load generator could not keep up (its process used {busy:0}% of the {cpus} CPU(s) " +
                $"it may run on{(result.ThreadsBusyPercent is { } threads ? $", its threads worked {threads:0}% of the window" : "")})")
            : string.Create(CultureInfo.InvariantCulture,
                $"the server could not keep up (the load used only {busy:0}% of the {cpus} CPU(s) it may run on; {result.Late} requests were sent late, " +
                $"waiting for a free connection or for the load's thread)");
    }

    private static string Ms(double milliseconds) => milliseconds switch
    {
        >= 1000 => string.Create(CultureInfo.InvariantCulture, $"{milliseconds / 1000:0.00}s"),
        >= 1 => string.Create(CultureInfo.InvariantCulture, $"{milliseconds:0.00}ms"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{milliseconds * 1000:0.00}us"),
    };
}

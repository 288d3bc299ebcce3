using Benchmarks.Runs;

namespace Benchmarks.Host.Runs;

/// <summary>Every measurement this tool reports: crank's names where crank has one, ours otherwise.</summary>
internal static class MeasurementCatalog
{
    public static IReadOnlyDictionary<string, MeasurementInfo> All { get; } = WithReduce(new Dictionary<string, MeasurementInfo>(StringComparer.Ordinal)
    {
        ["http/rps/mean"] = new("Requests/sec (responses completed over the measured window)", "req/s", "avg", true),
        ["http/requests"] = new("Requests completed (good + bad responses)", "count", "sum", true),
        ["http/requests/badresponses"] = new("Bad responses (non-2xx/3xx, invalid body, malformed)", "count", "sum", false),
        ["http/requests/errors"] = new("Socket errors (connect, read, write, timeout)", "count", "sum", false),
        ["http/requests/lost"] = new("Requests in flight on a connection that failed", "count", "sum", false),
        ["http/latency/mean"] = new("Mean latency (ms)", "ms", "avg", false),
        ["http/latency/stdev"] = new("Latency standard deviation (ms)", "ms", "avg", false),
        ["http/latency/50"] = new("Latency 50th percentile (ms)", "ms", "avg", false),
        ["http/latency/75"] = new("Latency 75th percentile (ms)", "ms", "avg", false),
        ["http/latency/90"] = new("Latency 90th percentile (ms)", "ms", "avg", false),
        ["http/latency/99"] = new("Latency 99th percentile (ms)", "ms", "avg", false),
        ["http/latency/99.9"] = new("Latency 99.9th percentile (ms)", "ms", "avg", false),
        ["http/latency/max"] = new("Max latency (ms)", "ms", "max", false),
        ["http/throughput"] = new("Throughput received (MB/s)", "MB/s", "avg", true),
        ["http/bytes"] = new("Bytes received in responses over the measured window (headers and bodies)", "bytes", "sum", null),
        ["benchmarks/cpu"] = new("Server process CPU (% of the machine)", "%", "max", null),
        ["benchmarks/cpu/user"] = new("Server process CPU in user mode (% of the machine)", "%", "max", null),
        ["benchmarks/cpu/kernel"] = new("Server process CPU in kernel mode (% of the machine)", "%", "max", null),
        ["benchmarks/working-set"] = new("Server working set (MB)", "MB", "max", false),
        ["machine/cpu/user"] = new("Machine CPU in user mode (%)", "%", "avg", null),
        ["machine/cpu/kernel"] = new("Machine CPU in kernel mode (%)", "%", "avg", null),
        ["machine/cpu/idle"] = new("Machine CPU idle (%)", "%", "avg", null),
        ["machine/cpu/steal"] = new("Machine CPU stolen by the hypervisor (%; 0 where the OS does not report it)", "%", "avg", false),
        ["net/rx"] = new("Received on the benchmark's interface (Mbit/s)", "Mbit/s", "avg", null),
        ["net/tx"] = new("Sent on the benchmark's interface (Mbit/s)", "Mbit/s", "avg", null),
        ["net/link-speed"] = new("Link speed of the benchmark's interface (Mbit/s)", "Mbit/s", "max", null),
        ["net/utilization"] = new("Link utilization, max(rx, tx) / link speed (%)", "%", "max", null),
        ["load/cpu/user"] = new("Load generator CPU in user mode (% of the machine)", "%", "avg", null),
        ["load/cpu/kernel"] = new("Load generator CPU in kernel mode (% of the machine)", "%", "avg", null),
        ["load/cpu-per-request"] = new("Load generator CPU time per request (us)", "us", "avg", false),
        ["http/rps"] = new("Requests/sec in one second", "req/s", "avg", true),
        ["ws/messages/rate"] = new("WebSocket echo replies per second that followed the rule (msg/s)", "msg/s", "avg", true),
        ["ws/messages"] = new("WebSocket echo replies that followed the rule", "count", "sum", true),
        ["ws/messages/bad"] = new("WebSocket replies that broke the echo rule", "count", "sum", false),
        ["ws/messages/lost"] = new("WebSocket messages in flight on a connection that failed", "count", "sum", false),
        ["ws/errors"] = new("WebSocket connection errors (refused, reset, handshake, abnormal close, timeout)", "count", "sum", false),
        ["ws/rtt/mean"] = new("WebSocket round trip, mean (ms)", "ms", "avg", false),
        ["ws/rtt/50"] = new("WebSocket round trip, 50th percentile (ms)", "ms", "avg", false),
        ["ws/rtt/90"] = new("WebSocket round trip, 90th percentile (ms)", "ms", "avg", false),
        ["ws/rtt/95"] = new("WebSocket round trip, 95th percentile (ms)", "ms", "avg", false),
        ["ws/idle/connections"] = new("Idle WebSocket connections held open", "count", "max", null),
        ["ws/idle/memory-per-connection"] = new("Load generator resident memory per idle WebSocket connection (KB)", "KB", "max", false),
        ["ws/rtt/99"] = new("WebSocket round trip, 99th percentile (ms)", "ms", "avg", false),
        ["ws/rtt/max"] = new("WebSocket round trip, max (ms)", "ms", "max", false),
        ["ws/broadcast/clients"] = new("Largest client count whose broadcast RTT stayed under the limit", "count", "max", true),
        ["ws/broadcast/steps"] = new("Broadcast steps run", "count", "max", null),
        ["ws/broadcast/expected"] = new("Broadcasts expected: sum of clients x sample size over the steps", "count", "sum", null),
        ["ws/broadcast/received"] = new("Broadcasts received by all clients", "count", "sum", null),
        ["ws/broadcast/rtt/limit-percentile"] = new("Broadcast RTT at the limit percentile, last step (ms)", "ms", "max", false),
        ["ws/broadcast/rtt/50"] = new("Broadcast RTT median, last step (ms)", "ms", "max", false),
        ["ws/broadcast/rtt/max"] = new("Broadcast RTT max, last step (ms)", "ms", "max", false),
        ["ws/connects"] = new("WebSocket handshakes completed in the measured window", "count", "sum", true),
        ["ws/handshakes"] = new("WebSocket handshakes completed in the whole run, warm-up included", "count", "sum", null),
        ["ws/connects/rate"] = new("WebSocket handshakes per second (sessions/s)", "conn/s", "avg", true),
        ["ws/connect/mean"] = new("WebSocket connect + handshake time, mean (ms)", "ms", "avg", false),
        ["ws/connect/min"] = new("WebSocket connect + handshake time, min (ms)", "ms", "min", false),
        ["ws/connect/50"] = new("WebSocket connect + handshake time, median (ms)", "ms", "avg", false),
        ["ws/connect/90"] = new("WebSocket connect + handshake time, 90th percentile (ms)", "ms", "avg", false),
        ["ws/connect/95"] = new("WebSocket connect + handshake time, 95th percentile (ms)", "ms", "avg", false),
        ["ws/connect/max"] = new("WebSocket connect + handshake time, max (ms)", "ms", "max", false),
    });

    /// <summary>
    /// Sets each measurement's <see cref="MeasurementInfo.Reduce"/>: what load machines do
    /// together adds up (rates, counts, bytes, traffic), their latencies take the worst (as crank's
    /// own wrk and bombardier jobs declare), and shares of a machine or per-request costs average.
    /// </summary>
    private static Dictionary<string, MeasurementInfo> WithReduce(Dictionary<string, MeasurementInfo> catalog)
    {
        foreach (var (name, info) in catalog.ToList())
        {
            var reduce = name switch
            {
                "ws/broadcast/steps" or "net/link-speed" => "max",
                _ => info.Unit switch
                {
                    "req/s" or "msg/s" or "conn/s" or "MB/s" or "Mbit/s" or "count" or "bytes" => "sum",
                    "ms" => "max",
                    _ => "avg",
                },
            };
            catalog[name] = info with { Reduce = reduce };
        }

        return catalog;
    }

    public static MeasurementInfo Describe(string name) =>
        All.TryGetValue(name, out var info) ? info : new MeasurementInfo(name, "", "avg", null);
}

using Benchmarks.Load.Protocols.Grpc;
using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// What a gRPC load reports beside its HTTP figures (a call is an HTTP/2 request: its rate is
/// <c>http/rps/mean</c>, its latency <c>http/latency/…</c>): the calls answered with each status
/// other than OK, one name per status. They are among <c>http/requests/badresponses</c>, which
/// counts every call that did not end OK, so they are its detail and not failures of their own.
/// </summary>
internal static class GrpcMeasures
{
    /// <summary>The name of the count of calls answered with <paramref name="slot"/>'s status (<see cref="GrpcStatus"/>).</summary>
    public static string StatusName(int slot) => "grpc/status/" + GrpcStatus.Names[slot].ToLowerInvariant();

    /// <summary>
    /// A gRPC stream's own rate: its round trips (ping-pong) or messages (server streaming) per second.
    /// Loads on several machines each report one stream's rate: combined, it is their mean, not their sum as a rate's.
    /// </summary>
    public static readonly Measurement StreamRate = new("grpc/stream/rate", "msg/s", Max, Higher,
        "Messages per second of one gRPC stream: ping-pong round trips or server-stream messages, the rate over connections × streams", reduce: Avg);

    /// <summary>Client streaming: the request messages a second the answered calls carried; a rate, so several load machines' add up.</summary>
    public static readonly Measurement RequestMessageRate = new("grpc/messages/rate", "msg/s", Max, Higher,
        "Client streaming: request messages per second the answered calls carried (calls per second x messages per call)", reduce: Sum);

    public static IReadOnlyList<Measurement> All { get; } =
    [
        StreamRate,
        RequestMessageRate,
        .. Enumerable.Range(1, GrpcStatus.Count - 1).Select(slot => new Measurement(
            StatusName(slot),
            "count",
            Max,
            Lower,
            slot switch
            {
                GrpcStatus.Missing => "gRPC calls answered without a grpc-status trailer (among the bad responses)",
                GrpcStatus.Compressed => "gRPC answers whose message had the compressed flag though no compression was agreed (among the bad responses)",
                GrpcStatus.BadLength => "Unary gRPC answers that were not one whole message of the length their prefix declared (among the bad responses)",
                _ => $"gRPC calls answered with status {GrpcStatus.Names[slot]} ({slot}) (among the bad responses)",
            })),
    ];

    /// <summary>Adds the counts of the statuses other than OK that came, and a stream's own rate: none for a load that made no gRPC calls.</summary>
    public static void Add(IDictionary<string, double> measurements, Load.Http.LoadResult result)
    {
        ArgumentNullException.ThrowIfNull(measurements);
        ArgumentNullException.ThrowIfNull(result);
        var statuses = result.GrpcStatuses;
        if (result.MessagesPerSecondPerStream is { } perStream)
        {
            measurements[StreamRate.Name] = perStream;
        }

        if (result.RequestMessagesPerSecond is { } messages)
        {
            measurements[RequestMessageRate.Name] = messages;
        }

        for (var slot = 1; statuses is not null && slot < GrpcStatus.Count; slot++)
        {
            if (statuses.TryGetValue(GrpcStatus.Names[slot], out var count))
            {
                measurements[StatusName(slot)] = count;
            }
        }
    }
}

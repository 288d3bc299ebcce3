using static Benchmarks.Host.Measurements.Better;
using static Benchmarks.Host.Measurements.Operation;

namespace Benchmarks.Host.Measurements;

/// <summary>
/// What an ASP.NET Core server and .NET's sockets count, under crank's names: Kestrel's
/// connections, queues and TLS handshakes (<c>kestrel-counter/*</c>, EventCounters of
/// Microsoft-AspNetCore-Server-Kestrel), the hosting layer's requests (<c>aspnet-counter/*</c>,
/// Microsoft.AspNetCore.Hosting), the sockets' connections and bytes (<c>sockets-counter/*</c>,
/// System.Net.Sockets), all read for a crank job that asks for them; and Kestrel's meter
/// (<c>kestrel-meter/*</c>), which every run reads beside the runtime's counters. A rate counter
/// is its increments per second; the others are their last value.
/// <para>
/// A run does not read the three EventCounter providers: an enabled source does work on every
/// request (the hosting source formats each request's start for its event even when the level
/// drops it). With them a Kestrel plaintext request allocated 934–950 bytes against 867–898
/// without, and the rate fell by about 5%, in one sitting.
/// </para>
/// </summary>
internal static class ServerCounterMeasures
{
    /// <summary>
    /// The meters (System.Diagnostics.Metrics) a run reads: Kestrel's connections and queues. Not
    /// ASP.NET Core's hosting meter: its request-duration histogram, once listened to, records
    /// every request with its tags, which added 70–100 bytes to what a Kestrel request allocates
    /// (about 10%): the figure would change what it explains.
    /// </summary>
    /// <remarks>
    /// Npgsql's by instrument, not whole: the commands executing and the requests waiting for a
    /// pooled connection are counted on every command anyway; its duration histogram is not read.
    /// </remarks>
    public static IReadOnlyList<string> Meters { get; } = [KestrelMeter, NpgsqlMeter + "\\" + NpgsqlExecuting, NpgsqlMeter + "\\" + NpgsqlPending];

    private const string KestrelMeter = "Microsoft.AspNetCore.Server.Kestrel";

    private const string NpgsqlMeter = "Npgsql";

    private const string NpgsqlExecuting = "db.client.operation.npgsql.executing";

    private const string NpgsqlPending = "db.client.connection.npgsql.pending_requests";

    /// <summary>Commands the server's Npgsql had sent and not yet had answered, at each second: the requests waiting on the database.</summary>
    public static readonly Measurement DatabaseCommandsExecuting = Measurement.ServerCounter("npgsql-meter/executing-commands", "count", Avg, Neither,
        "Database commands the server's Npgsql was executing at once (db.client.operation.npgsql.executing), mean of the seconds");

    /// <summary>Requests waiting for a connection from the server's Npgsql pool, at each second.</summary>
    public static readonly Measurement DatabasePendingConnections = Measurement.ServerCounter("npgsql-meter/pending-connection-requests", "count", Avg, Lower,
        "Requests waiting for a connection from the server's Npgsql pool (db.client.connection.npgsql.pending_requests), mean of the seconds");

    public static IReadOnlyList<Measurement> All { get; } =
    [
        Measurement.ServerCounter("kestrel-counter/connections-per-second", "/s", Avg, Neither, "Connections Kestrel accepted, mean per second"),
        Measurement.ServerCounter("kestrel-counter/total-connections", "count", Max, Neither, "Connections Kestrel accepted since it started, last second"),
        Measurement.ServerCounter("kestrel-counter/current-connections", "count", Max, Neither, "Connections open in Kestrel, largest second"),
        Measurement.ServerCounter("kestrel-counter/connection-queue-length", "count", Max, Lower,
            "Connections accepted and waiting for Kestrel to start them (its transport's queue), largest second"),
        Measurement.ServerCounter("kestrel-counter/request-queue-length", "count", Max, Lower,
            "Requests Kestrel read and queued for the application (waiting for a thread), largest second"),
        Measurement.ServerCounter("kestrel-counter/current-upgraded-requests", "count", Max, Neither,
            "Upgraded connections (WebSockets) open in Kestrel, largest second"),
        Measurement.ServerCounter("kestrel-counter/tls-handshakes-per-second", "/s", Avg, Neither, "TLS handshakes Kestrel completed, mean per second"),
        Measurement.ServerCounter("kestrel-counter/total-tls-handshakes", "count", Max, Neither,
            "TLS handshakes Kestrel completed since it started, last second"),
        Measurement.ServerCounter("kestrel-counter/current-tls-handshakes", "count", Max, Neither, "TLS handshakes in progress in Kestrel, largest second"),
        Measurement.ServerCounter("kestrel-counter/failed-tls-handshakes", "count", Max, Lower,
            "TLS handshakes that failed in Kestrel since it started, last second"),
        Measurement.ServerCounter("aspnet-counter/requests-per-second", "/s", Avg, Higher, "Requests ASP.NET Core's hosting layer started, mean per second"),
        Measurement.ServerCounter("aspnet-counter/total-requests", "count", Max, Neither,
            "Requests ASP.NET Core's hosting layer started since the server did, last second"),
        Measurement.ServerCounter("aspnet-counter/current-requests", "count", Max, Neither, "Requests in ASP.NET Core's pipeline at once, largest second"),
        Measurement.ServerCounter("aspnet-counter/failed-requests", "count", Max, Lower,
            "Requests that failed in ASP.NET Core's pipeline (an exception) since the server started, last second"),
        Measurement.ServerCounter("sockets-counter/incoming-connections-established", "count", Max, Neither,
            "Connections the server's sockets accepted since it started, last second"),
        Measurement.ServerCounter("sockets-counter/outgoing-connections-established", "count", Max, Neither,
            "Connections the server's sockets opened (to a database or a backend) since it started, last second"),
        Measurement.ServerCounter("sockets-counter/bytes-received", "bytes", Max, Neither, "Bytes the server's sockets received since it started, last second"),
        Measurement.ServerCounter("sockets-counter/bytes-sent", "bytes", Max, Neither, "Bytes the server's sockets sent since it started, last second"),
        Measurement.ServerCounter("kestrel-meter/active-connections", "count", Max, Neither,
            "Connections open in Kestrel (its meter's kestrel.active_connections, every endpoint), largest second"),
        Measurement.ServerCounter("kestrel-meter/queued-connections", "count", Max, Lower,
            "Connections accepted and waiting for Kestrel to start them (kestrel.queued_connections), largest second"),
        Measurement.ServerCounter("kestrel-meter/queued-requests", "count", Max, Lower,
            "Requests on HTTP/2 and HTTP/3 connections waiting for Kestrel to start them (kestrel.queued_requests), largest second"),
        Measurement.ServerCounter("kestrel-meter/active-tls-handshakes", "count", Max, Neither,
            "TLS handshakes in progress in Kestrel (kestrel.active_tls_handshakes), largest second"),
        DatabaseCommandsExecuting,
        DatabasePendingConnections,
    ];

    /// <summary>The measurement name of a meter's instrument, or null for one the catalog does not declare.</summary>
    public static string? MeterName(string meter, string instrument)
    {
        var name = (meter, instrument) switch
        {
            (KestrelMeter, "kestrel.active_connections") => "kestrel-meter/active-connections",
            (KestrelMeter, "kestrel.queued_connections") => "kestrel-meter/queued-connections",
            (KestrelMeter, "kestrel.queued_requests") => "kestrel-meter/queued-requests",
            (KestrelMeter, "kestrel.active_tls_handshakes") => "kestrel-meter/active-tls-handshakes",
            (NpgsqlMeter, NpgsqlExecuting) => DatabaseCommandsExecuting.Name,
            (NpgsqlMeter, NpgsqlPending) => DatabasePendingConnections.Name,
            _ => null,
        };
        return name;
    }
}

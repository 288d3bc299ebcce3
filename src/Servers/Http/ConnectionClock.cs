namespace Benchmarks.Servers.Http;

/// <summary>
/// When one connection's current request began arriving, or since when it has been idle, and
/// whether a limit of <see cref="RawServerLimits"/> has passed. Updated by the connection after
/// every read; checked by its server's once-a-second heartbeat.
/// </summary>
public sealed class ConnectionClock
{
    private long _requestStarted;
    private long _idleSince = Environment.TickCount64;

    /// <summary>Upgraded connections (WebSockets) are not subject to the HTTP limits.</summary>
    public bool Exempt { get; set; }

    /// <summary>After a read was processed: <paramref name="partialRequest"/> says whether part of a request is waiting for more bytes.</summary>
    public void Observe(bool partialRequest)
    {
        var now = Environment.TickCount64;
        if (!partialRequest)
        {
            Volatile.Write(ref _requestStarted, 0);
            Volatile.Write(ref _idleSince, now);
        }
        else if (Volatile.Read(ref _requestStarted) == 0)
        {
            Volatile.Write(ref _requestStarted, now);
        }
    }

    public ConnectionTimeout Check(RawServerLimits limits, long now)
    {
        ArgumentNullException.ThrowIfNull(limits);
        if (Exempt)
        {
            return ConnectionTimeout.None;
        }

        var started = Volatile.Read(ref _requestStarted);
        if (started != 0)
        {
            return now - started > (long)limits.RequestTimeout.TotalMilliseconds ? ConnectionTimeout.Request : ConnectionTimeout.None;
        }

        return now - Volatile.Read(ref _idleSince) > (long)limits.KeepAliveTimeout.TotalMilliseconds ? ConnectionTimeout.KeepAlive : ConnectionTimeout.None;
    }
}

using Benchmarks.Load.Engines.Native;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http2;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>One connection of an epoll worker: its socket and batch (<see cref="NativeConnection"/>), its phase, its TLS and its HTTP/2 session.</summary>
internal sealed class EpollConnection(int index) : NativeConnection(index)
{
    public EpollPhase Phase;

    /// <summary>Over TLS: the connection's OpenSSL object (SSL*); 0 in cleartext or while there is none.</summary>
    public nint Ssl;

    /// <summary>Over TLS: the handshake is done (a close_notify is owed at the close).</summary>
    public bool TlsUp;

    /// <summary>
    /// Over TLS: what ended a read after some bytes (an error code, or int.MaxValue for the end of
    /// the stream), for the next read; 0 for none.
    /// </summary>
    public int TlsDeferred;

    /// <summary>The cause of the last TLS failure (<see cref="EpollTls.Failed"/>).</summary>
    public string? TlsError;

    /// <summary>When the TCP connect ended: what the TLS handshake is timed from.</summary>
    public long ConnectedAt;

    /// <summary>The epoll events the socket is registered for.</summary>
    public uint Interest;

    /// <summary>Open model: on its worker's stack of idle connections.</summary>
    public bool Idle;

    /// <summary>Open model, HTTP/2: when the connection last went on the idle stack with a free stream (Stopwatch ticks).</summary>
    public long FreeSince;

    /// <summary>What the batch's latency is timed from: its due time in the open model, else its send.</summary>
    public long TimedFrom;

    /// <summary>HTTP/2: the connection's protocol state (its streams in flight); null for HTTP/1.1.</summary>
    public Http2Session? Http2 { get; init; }
}

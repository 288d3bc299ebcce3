using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;

namespace Benchmarks.Load.Engines.IoUring;

/// <summary>One connection of an io_uring load worker: its socket, its batch in flight and its counts. Touched by its worker's thread only (the clock reads the counters).</summary>
internal sealed class IoUringLoadConnection(int index)
{
    public int Index { get; } = index;

    /// <summary>The socket's descriptor; -1 while there is none.</summary>
    public int Fd = -1;

    /// <summary>Told apart from the completions of this slot's earlier sockets, which carry an older one.</summary>
    public uint Generation;

    public bool Connecting;

    /// <summary>The multishot receive is armed.</summary>
    public bool Receiving;

    /// <summary>A send of the batch is in flight.</summary>
    public bool Sending;

    public int Written;

    public int Outstanding;

    public bool Measured;

    public long SentAt;

    /// <summary>When the connection started waiting on the server (connect or batch), for the timeout; 0 when not waiting.</summary>
    public long WaitingSince;

    /// <summary>When a connection that is closed connects (again).</summary>
    public long RetryAt;

    public ConnectionCounters Counters;

    public string? FirstError;

    public HttpResponseParser Parser { get; init; } = null!;
}

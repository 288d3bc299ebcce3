using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace Benchmarks.Servers.Kestrel.IoUring;

/// <summary>
/// A connection of the io_uring transport as Kestrel holds it: its id, its transport's ends of the
/// two pipes, Kestrel's pool of blocks (a response's body waits in them until its headers are
/// written), and the token Kestrel's abort cancels. Kestrel disposes it once it is done with the
/// connection, and, as the socket transport does there, that completes the transport's ends of
/// both pipes: the send loop ends, and the ring closes the descriptor. The token's source is never
/// disposed: an abort queues its cancel to the thread pool, and Kestrel disposes the connection
/// right after aborting it (<see cref="DefaultConnectionContext"/>, which disposes it, ended the
/// process that way at the end of every wrk run).
/// </summary>
internal sealed class IoUringConnectionContext : ConnectionContext, IConnectionIdFeature, IConnectionItemsFeature, IConnectionTransportFeature,
IConnectionLifetimeFeature, IConnectionEndPointFeature, IMemoryPoolFeature
{
    private readonly CancellationTokenSource _closed = new();
    private int _aborted;

    public IoUringConnectionContext(string id, IDuplexPipe transport, EndPoint localEndPoint, MemoryPool<byte> pool)
    {
        ConnectionId = id;
        Transport = transport;
        LocalEndPoint = localEndPoint;
        MemoryPool = pool;
        ConnectionClosed = _closed.Token;
        Features = new FeatureCollection();
        Features.Set<IConnectionIdFeature>(this);
        Features.Set<IConnectionItemsFeature>(this);
        Features.Set<IConnectionTransportFeature>(this);
        Features.Set<IConnectionLifetimeFeature>(this);
        Features.Set<IConnectionEndPointFeature>(this);
        Features.Set<IMemoryPoolFeature>(this);
    }

    public override string ConnectionId { get; set; }

    public override IFeatureCollection Features { get; }

    public override IDictionary<object, object?> Items { get; set; } = new ConnectionItems();

    public override IDuplexPipe Transport { get; set; }

    public MemoryPool<byte> MemoryPool { get; }

    public override void Abort(ConnectionAbortedException abortReason)
    {
        if (Interlocked.Exchange(ref _aborted, 1) == 0)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static source => source.Cancel(), _closed, preferLocal: false);
        }
    }

    public override async ValueTask DisposeAsync()
    {
        await Transport.Input.CompleteAsync();
        await Transport.Output.CompleteAsync();
        await base.DisposeAsync();
    }
}

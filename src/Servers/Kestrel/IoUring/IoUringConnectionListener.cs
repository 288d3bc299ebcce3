using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Runtime.Versioning;
using System.Threading.Channels;
using Microsoft.AspNetCore.Connections;

namespace Benchmarks.Servers.Kestrel.IoUring;

/// <summary>One endpoint of the io_uring transport: its listening socket, its rings, and the connections they accepted, handed to Kestrel in order.</summary>
[SupportedOSPlatform("linux")]
internal sealed class IoUringConnectionListener : IConnectionListener
{
    private readonly Socket _socket;
    private readonly IoUringTransportLoop[] _loops;
    private readonly Channel<ConnectionContext> _accepted = Channel.CreateUnbounded<ConnectionContext>(new UnboundedChannelOptions { SingleReader = false,
        SingleWriter = false });

    private readonly MemoryPool<byte> _pool;

    public IoUringConnectionListener(Socket socket, int loops, MemoryPool<byte> pool, bool inlineScheduling)
    {
        _socket = socket;
        _pool = pool;
        EndPoint = socket.LocalEndPoint!;
        _loops = [.. Enumerable.Range(0, Math.Max(1, loops)).Select(i => new IoUringTransportLoop(i, (int)socket.Handle, EndPoint, pool, inlineScheduling,
            c => _accepted.Writer.TryWrite(c)))];
    }

    public EndPoint EndPoint { get; }

    public async Task StartAsync()
    {
        try
        {
            await Task.WhenAll(_loops.Select(l => l.StartAsync()));
        }
        catch
        {
            await DisposeAsync();
            throw;
        }
    }

    public async ValueTask<ConnectionContext?> AcceptAsync(CancellationToken cancellationToken = default)
    {
        try
        {
            return await _accepted.Reader.ReadAsync(cancellationToken);
        }
        catch (ChannelClosedException)
        {
            return null;
        }
    }

    /// <summary>Stops accepting: the rings cancel their accepts, and the connections they hold go on.</summary>
    public ValueTask UnbindAsync(CancellationToken cancellationToken = default)
    {
        foreach (var loop in _loops)
        {
            loop.StopAccepting();
        }

        _accepted.Writer.TryComplete();
        return ValueTask.CompletedTask;
    }

    /// <summary>Ends every ring: a connection still open is closed, and the listening socket with them.</summary>
    public async ValueTask DisposeAsync()
    {
        _accepted.Writer.TryComplete();
        foreach (var loop in _loops)
        {
            loop.RequestStop();
        }

        await Task.WhenAll(_loops.Select(l => l.Stopped));
        _socket.Dispose();
        _pool.Dispose();
    }
}

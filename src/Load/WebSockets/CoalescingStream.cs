using System.Runtime.CompilerServices;

namespace Benchmarks.Load.WebSockets;

/// <summary>
/// Between <see cref="Hold"/> and <see cref="SendHeldAsync"/> writes collect in a buffer (the WebSocket's
/// own flush after each frame included), so a burst of frames leaves in one socket write; outside a hold,
/// writes go straight through, so close and pong frames are never kept back. Reads are served from a
/// 16 KB buffer, so the WebSocket's small frame-by-frame reads do not each cost a system call.
/// One writer and one reader may use it at once.
/// </summary>
internal sealed class CoalescingStream : Benchmarks.Servers.DuplexStream
{
    private readonly Stream _inner;
    private readonly byte[] _received = new byte[16 * 1024];
    private byte[] _pending = new byte[4096];
    private int _length;
    private bool _holding;
    private int _receivedStart;
    private int _receivedEnd;

    public CoalescingStream(Stream inner)
    {
        _inner = inner;
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_receivedStart == _receivedEnd)
        {
            _receivedStart = 0;
            _receivedEnd = await _inner.ReadAsync(_received, cancellationToken);
            if (_receivedEnd == 0)
            {
                return 0;
            }
        }

        var count = Math.Min(buffer.Length, _receivedEnd - _receivedStart);
        _received.AsMemory(_receivedStart, count).CopyTo(buffer);
        _receivedStart += count;
        return count;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer, offset, count, CancellationToken.None).GetAwaiter().GetResult();

    /// <summary>Keep writes back until <see cref="SendHeldAsync"/>.</summary>
    public void Hold() => _holding = true;

    /// <summary>Reserves <paramref name="length"/> bytes at the end of what is held, for a frame written in place.</summary>
    public Span<byte> Reserve(int length)
    {
        Grow(length);
        var span = _pending.AsSpan(_length, length);
        _length += length;
        return span;
    }

    /// <summary>Gives back what a <see cref="Reserve"/> did not use.</summary>
    public void Unreserve(int unused) => _length -= unused;

    /// <summary>Ends the hold: everything written since leaves in one socket write.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask SendHeldAsync(CancellationToken cancellationToken)
    {
        _holding = false;
        await SendPendingAsync(cancellationToken);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        Append(buffer.Span);
        if (!_holding)
        {
            await SendPendingAsync(cancellationToken);
        }
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Write(byte[] buffer, int offset, int count) => WriteAsync(buffer.AsMemory(offset, count)).AsTask().GetAwaiter().GetResult();

    public override Task FlushAsync(CancellationToken cancellationToken) =>
        _holding ? Task.CompletedTask : SendPendingAsync(cancellationToken).AsTask();

    public override void Flush() => FlushAsync(CancellationToken.None).GetAwaiter().GetResult();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _inner.Dispose();
        }

        base.Dispose(disposing);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendPendingAsync(CancellationToken cancellationToken)
    {
        if (_length > 0)
        {
            var length = _length;
            _length = 0;
            await _inner.WriteAsync(_pending.AsMemory(0, length), cancellationToken);
        }
    }

    private void Grow(int length)
    {
        if (_length + length > _pending.Length)
        {
            Array.Resize(ref _pending, Math.Max(_pending.Length * 2, _length + length));
        }
    }

    private void Append(ReadOnlySpan<byte> data)
    {
        Grow(data.Length);
        data.CopyTo(_pending.AsSpan(_length));
        _length += data.Length;
    }
}

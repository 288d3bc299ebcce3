namespace Benchmarks.Load.WebSockets;

/// <summary>
/// Writes collect in a buffer until <see cref="FlushAsync(CancellationToken)"/>, so a burst of WebSocket
/// frames leaves in one socket write; reads are served from a 16 KB buffer, so the WebSocket's small
/// frame-by-frame reads do not each cost a system call. One writer and one reader may use it at once.
/// </summary>
internal sealed class CoalescingStream : Stream
{
    private readonly Stream _inner;
    private readonly byte[] _received = new byte[16 * 1024];
    private byte[] _pending = new byte[4096];
    private int _length;
    private int _receivedStart;
    private int _receivedEnd;

    public CoalescingStream(Stream inner)
    {
        _inner = inner;
    }

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

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

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        Append(buffer.Span);
        return ValueTask.CompletedTask;
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        Append(buffer.AsSpan(offset, count));
        return Task.CompletedTask;
    }

    public override void Write(byte[] buffer, int offset, int count) => Append(buffer.AsSpan(offset, count));

    public override async Task FlushAsync(CancellationToken cancellationToken)
    {
        if (_length > 0)
        {
            var length = _length;
            _length = 0;
            await _inner.WriteAsync(_pending.AsMemory(0, length), cancellationToken);
        }
    }

    public override void Flush() => FlushAsync(CancellationToken.None).GetAwaiter().GetResult();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _inner.Dispose();
        }

        base.Dispose(disposing);
    }

    private void Append(ReadOnlySpan<byte> data)
    {
        if (_length + data.Length > _pending.Length)
        {
            Array.Resize(ref _pending, Math.Max(_pending.Length * 2, _length + data.Length));
        }

        data.CopyTo(_pending.AsSpan(_length));
        _length += data.Length;
    }
}

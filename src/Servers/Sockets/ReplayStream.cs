namespace Benchmarks.Servers.Sockets;

/// <summary>
/// A connection's stream after an upgrade: first the bytes that arrived behind the upgrade
/// request (already read from the socket), then the socket. Writes go to the socket.
/// </summary>
internal sealed class ReplayStream : DuplexStream
{
    private readonly Stream _inner;
    private readonly byte[] _held;
    private int _offset;

    public ReplayStream(ReadOnlySpan<byte> held, Stream inner)
    {
        _held = held.ToArray();
        _inner = inner;
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_offset < _held.Length)
        {
            var count = Math.Min(buffer.Length, _held.Length - _offset);
            _held.AsSpan(_offset, count).CopyTo(buffer.Span);
            _offset += count;
            return ValueTask.FromResult(count);
        }

        return _inner.ReadAsync(buffer, cancellationToken);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer.AsMemory(offset, count)).AsTask().GetAwaiter().GetResult();

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) =>
        _inner.WriteAsync(buffer, cancellationToken);

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        _inner.WriteAsync(buffer, offset, count, cancellationToken);

    public override void Write(byte[] buffer, int offset, int count) => _inner.Write(buffer, offset, count);

    public override Task FlushAsync(CancellationToken cancellationToken) => _inner.FlushAsync(cancellationToken);

    public override void Flush() => _inner.Flush();
}

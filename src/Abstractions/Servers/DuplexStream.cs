namespace Benchmarks.Servers;

/// <summary>
/// A connection as a stream: it reads what the peer sent and writes what it is sent, in order,
/// and has no length or position. A server model's or the load's adapters derive from it and
/// write only their reads and writes.
/// </summary>
public abstract class DuplexStream : Stream
{
    public sealed override bool CanRead => true;

    public sealed override bool CanSeek => false;

    public sealed override bool CanWrite => true;

    public sealed override long Length => throw new NotSupportedException();

    public sealed override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public sealed override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public sealed override void SetLength(long value) => throw new NotSupportedException();
}

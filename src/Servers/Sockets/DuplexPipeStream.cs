using System.Buffers;
using System.IO.Pipelines;

namespace Benchmarks.Servers.Sockets;

/// <summary>
/// A connection's input and output pipes as one stream, for <c>WebSocket.CreateFromStream</c> after an upgrade.
/// <para>
/// Writes made while the connection's reader is handling what it read are held in the output pipe and
/// flushed when the reader comes back for more and finds nothing buffered: replies to a batch of
/// messages that arrived in one read leave in one socket write, as the HTTP responses to a pipelined
/// batch do. A write made while the reader waits on the network (a broadcast from another connection)
/// is flushed at once, and so is a write that would hold more than <see cref="MaxHeldBytes"/>.
/// </para>
/// </summary>
internal sealed class DuplexPipeStream : DuplexStream
{
    private const int MaxHeldBytes = 64 * 1024;

    private readonly PipeReader _input;
    private readonly PipeWriter _output;
    private readonly SemaphoreSlim _writeGate = new(1, 1);
    private bool _readerBusy;
    private int _heldBytes;

    public DuplexPipeStream(PipeReader input, PipeWriter output)
    {
        _input = input;
        _output = output;
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (!_input.TryRead(out var result))
        {
            await ReaderIdleAsync(cancellationToken);
            result = await _input.ReadAsync(cancellationToken);
            Volatile.Write(ref _readerBusy, true);
        }

        if (result.IsCanceled)
        {
            throw new OperationCanceledException("The connection is stopping.");
        }

        var sequence = result.Buffer;
        var count = (int)Math.Min(buffer.Length, sequence.Length);
        sequence.Slice(0, count).CopyTo(buffer.Span);
        _input.AdvanceTo(sequence.GetPosition(count));
        return count;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        await _writeGate.WaitAsync(cancellationToken);
        try
        {
            _output.Write(buffer.Span);
            _heldBytes += buffer.Length;
            if (Volatile.Read(ref _readerBusy) && _heldBytes < MaxHeldBytes)
            {
                return;
            }

            await FlushHeldAsync(cancellationToken);
        }
        finally
        {
            _writeGate.Release();
        }
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <summary>Flushes at once only if the reader is waiting on the network; else the reader flushes when it goes back to it.</summary>
    public override async Task FlushAsync(CancellationToken cancellationToken)
    {
        await _writeGate.WaitAsync(cancellationToken);
        try
        {
            if (Volatile.Read(ref _readerBusy) && _heldBytes < MaxHeldBytes)
            {
                return;
            }

            await FlushHeldAsync(cancellationToken);
        }
        finally
        {
            _writeGate.Release();
        }
    }

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer.AsMemory(offset, count)).AsTask().GetAwaiter().GetResult();

    public override void Write(byte[] buffer, int offset, int count) => WriteAsync(buffer.AsMemory(offset, count)).AsTask().GetAwaiter().GetResult();

    public override void Flush() => FlushAsync(CancellationToken.None).GetAwaiter().GetResult();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _writeGate.Dispose();
        }

        base.Dispose(disposing);
    }

    /// <summary>The reader is about to wait on the network: what its handling wrote goes out now.</summary>
    private async ValueTask ReaderIdleAsync(CancellationToken cancellationToken)
    {
        await _writeGate.WaitAsync(cancellationToken);
        try
        {
            Volatile.Write(ref _readerBusy, false);
            await FlushHeldAsync(cancellationToken);
        }
        finally
        {
            _writeGate.Release();
        }
    }

    private async ValueTask FlushHeldAsync(CancellationToken cancellationToken)
    {
        if (_heldBytes == 0)
        {
            return;
        }

        _heldBytes = 0;
        var flush = await _output.FlushAsync(cancellationToken);
        if (flush.IsCompleted)
        {
            throw new IOException("The client stopped reading.");
        }
    }
}

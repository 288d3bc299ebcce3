using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using System.Threading.Tasks.Sources;
using Benchmarks.IoUring;
using Microsoft.AspNetCore.Connections;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.Servers.Kestrel.IoUring;

/// <summary>
/// One connection of the io_uring transport, as Kestrel sees it: a <see cref="IoUringConnectionContext"/>
/// whose input pipe the ring fills from its multishot receive and whose output pipe a send loop
/// drains into the ring's sends, through a native buffer of its own (the ring reads it until the
/// send completes). Sending by send(2) where Kestrel flushed, as the socket transport sends, was
/// measured and left out: beside the ring's multishot receive, two pipelined runs served 29k and 40k
/// requests a second with 20-22% of the machine in the kernel, where sends through the ring served
/// 63-66k. Input past <see cref="PauseInputBytes"/> that Kestrel has not read
/// cancels the receive until it has (the pipe's back-pressure); the descriptor is closed once
/// Kestrel has completed its output, or the peer or the ring has ended the connection, and no
/// operation of the ring still uses it. The send buffer is freed by the send loop as it ends (no
/// send is in flight then).
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class IoUringTransportConnection : IValueTaskSource<bool>, IRingConnection
{
    public const int PauseInputBytes = 1024 * 1024;
    private const int SendBufferSize = 64 * 1024;

    private readonly IoUringTransportLoop _loop;
    private readonly Pipe _input;
    private readonly Pipe _output;
    // Completed on the ring's thread, where the send loop then goes on: it only hands the ring its next bytes or waits.
    private ManualResetValueTaskSourceCore<bool> _sent = new() { RunContinuationsAsynchronously = false };
    private nint _sendBuffer;
    private int _sendLength;
    private int _sendOffset;
    private bool _sendInFlight;
    private bool _receiving;
    private bool _receivePaused;
    private bool _flushPending;
    private bool _inputDone;
    private bool _closing;
    private bool _closed;

    public IoUringTransportConnection(IoUringTransportLoop loop, int fd, int slot, uint generation, string id, EndPoint localEndPoint, MemoryPool<byte> pool,
        bool inlineScheduling)
    {
        _loop = loop;
        Fd = fd;
        Slot = slot;
        Generation = generation;
        // The ring writes the input (inline, on its thread) and Kestrel reads it on the thread pool, or on the
        // ring's thread with unsafePreferInlineScheduling; Kestrel writes the output and the send loop reads it
        // where Kestrel flushed.
        _input = new Pipe(new PipeOptions(pool, pauseWriterThreshold: PauseInputBytes, resumeWriterThreshold: PauseInputBytes / 2,
            writerScheduler: PipeScheduler.Inline, readerScheduler: inlineScheduling ? PipeScheduler.Inline : PipeScheduler.ThreadPool,
            useSynchronizationContext: false));
        _output = new Pipe(new PipeOptions(pool, writerScheduler: PipeScheduler.ThreadPool, readerScheduler: PipeScheduler.Inline,
            useSynchronizationContext: false));
        Context = new IoUringConnectionContext(id, new DuplexPipe(_input.Reader, _output.Writer), localEndPoint, pool);
        _sendBuffer = AllocateSendBuffer();
    }

    public int Fd { get; }

    public int Slot { get; }

    public uint Generation { get; }

    public IoUringConnectionContext Context { get; }

    /// <summary>On the ring's thread, once: the receive is armed and the send loop waits for Kestrel's first output.</summary>
    public void Start()
    {
        Receive();
        // Kestrel's Abort ends the send loop, which closes the connection.
        Context.ConnectionClosed.UnsafeRegister(static state => ((IoUringTransportConnection)state!)._output.Reader.CancelPendingRead(), this);
        _ = SendLoopAsync();
    }

    /// <summary>A completion of the multishot receive: <paramref name="data"/> is valid only during the call.</summary>
    public void OnReceived(int result, bool more, ReadOnlyMemory<byte> data)
    {
        if (!more)
        {
            _receiving = false;
        }

        if (result > 0)
        {
            if (!_inputDone)
            {
                _input.Writer.Write(data.Span);
                if (!_flushPending)
                {
                    Flush();
                }
            }
        }
        else if (result == 0)
        {
            EndInput(null);
        }
        else if (result != -ENoBufs && result != -ECanceled)
        {
            EndInput(new ConnectionResetException($"the connection's receive failed: {IoUringProbe.Describe(-result)}"));
        }

        if (!_receiving && !_receivePaused && !_inputDone && !_closing)
        {
            // The kernel ended the multishot receive (out of provided buffers): armed again.
            Receive();
        }

        TryRelease();
    }

    /// <summary>A completion of this connection's send.</summary>
    public void OnSent(int result)
    {
        _sendInFlight = false;
        if (result > 0 && !_closing)
        {
            _sendOffset += result;
            if (_sendOffset < _sendLength)
            {
                SendFrom(_sendOffset);
                return;
            }
        }

        var sent = result > 0 && _sendOffset == _sendLength;
        TryRelease();
        _sent.SetResult(sent);
    }

    /// <summary>On the ring's thread: the send loop has put bytes in the send buffer.</summary>
    public void SendQueued()
    {
        if (_closing)
        {
            _sent.SetResult(false);
            return;
        }

        SendFrom(0);
    }

    private unsafe void SendFrom(int offset)
    {
        _sendInFlight = true;
        _loop.Send(this, (byte*)_sendBuffer + offset, _sendLength - offset);
    }

    private static unsafe nint AllocateSendBuffer() => (nint)NativeMemory.Alloc(SendBufferSize);

    private unsafe void FreeSendBuffer()
    {
        NativeMemory.Free((void*)_sendBuffer);
        _sendBuffer = 0;
    }

    private unsafe void CopyToSendBuffer(in ReadOnlySequence<byte> bytes) => bytes.CopyTo(new Span<byte>((void*)_sendBuffer, (int)bytes.Length));

    /// <summary>On the ring's thread: Kestrel has read the input below the pipe's resume mark.</summary>
    public void ResumeReceiving()
    {
        _flushPending = false;
        _receivePaused = false;
        if (_inputDone || _closing)
        {
            TryRelease();
            return;
        }

        if (_input.Writer.UnflushedBytes > 0)
        {
            Flush();
        }

        if (!_receiving && !_receivePaused)
        {
            Receive();
        }
    }

    /// <summary>
    /// On the ring's thread: Kestrel is done with the connection (its output ended): no more input
    /// is read, and the descriptor is closed once the ring's operations on it have ended.
    /// </summary>
    public void Close()
    {
        if (_closing)
        {
            return;
        }

        _closing = true;
        if (_receiving)
        {
            _loop.CancelReceive(this);
        }

        EndInput(null);
        TryRelease();
    }

    /// <summary>On the ring's thread, as it stops: the connection ends now, whatever Kestrel is doing with it.</summary>
    public void Abort()
    {
        _ = Shutdown(Fd, ShutBoth);
        EndInput(new ConnectionAbortedException("the io_uring transport stopped"));
        _output.Reader.CancelPendingRead();
        Close();
    }

    private void Receive()
    {
        _receiving = true;
        _loop.Receive(this);
    }

    private void Flush()
    {
        var flush = _input.Writer.FlushAsync();
        if (flush.IsCompletedSuccessfully)
        {
            if (flush.Result.IsCompleted)
            {
                // Kestrel will read no more of it.
                EndInput(null);
            }

            return;
        }

        // Past the pause mark: no more is read from the socket until Kestrel has caught up.
        _flushPending = true;
        _receivePaused = true;
        if (_receiving)
        {
            _loop.CancelReceive(this);
        }

        _ = AwaitFlushAsync(flush);
    }

    private async Task AwaitFlushAsync(ValueTask<FlushResult> flush)
    {
        // The flag is the ring's: it is cleared there, when the ring resumes the connection.
        try
        {
            var result = await flush;
            _loop.Post(this, result.IsCompleted ? IoUringTransportLoop.Work.Close : IoUringTransportLoop.Work.Resume);
        }
        catch (Exception)
        {
            _loop.Post(this, IoUringTransportLoop.Work.Close);
        }
    }

    private void EndInput(Exception? error)
    {
        if (_inputDone)
        {
            return;
        }

        _inputDone = true;
        _input.Writer.Complete(error);
    }

    /// <summary>Closes the descriptor and frees the slot once the connection is closing and no receive or send of the ring still uses it.</summary>
    private void TryRelease()
    {
        if (!_closing || _closed || _receiving || _sendInFlight)
        {
            return;
        }

        _closed = true;
        _ = IoUringNative.Close(Fd);
        _loop.Release(this);
    }

    /// <summary>On the ring's thread: the connection was closed before its send was taken.</summary>
    public void SendRefused() => _sent.SetResult(false);

    /// <summary>
    /// Drains Kestrel's output: each read is copied into the send buffer and sent by the ring, and the
    /// next read waits for that send to complete. Ends when Kestrel completes the output, the connection
    /// is aborted, or a send fails; then the ring closes the connection.
    /// </summary>
    private async Task SendLoopAsync()
    {
        var reader = _output.Reader;
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync();
                var buffer = result.Buffer;
                var ok = true;
                while (ok && !buffer.IsEmpty)
                {
                    var length = (int)Math.Min(buffer.Length, SendBufferSize);
                    CopyToSendBuffer(buffer.Slice(0, length));
                    buffer = buffer.Slice(length);
                    _sendLength = length;
                    _sendOffset = 0;
                    _loop.Post(this, IoUringTransportLoop.Work.Send);
                    ok = await new ValueTask<bool>(this, _sent.Version);
                    _sent.Reset();
                }

                reader.AdvanceTo(result.Buffer.End);
                if (!ok || result.IsCompleted || result.IsCanceled)
                {
                    break;
                }
            }

            await reader.CompleteAsync();
        }
        catch (Exception ex)
        {
            await reader.CompleteAsync(ex);
        }

        // No send is in flight now, and none will be: the buffer is the loop's last use of it.
        FreeSendBuffer();
        _loop.Post(this, IoUringTransportLoop.Work.Close);
    }

    bool IValueTaskSource<bool>.GetResult(short token) => _sent.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<bool>.GetStatus(short token) => _sent.GetStatus(token);

    void IValueTaskSource<bool>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _sent.OnCompleted(continuation, state, token, flags);

    private sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}

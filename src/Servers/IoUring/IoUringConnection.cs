using System.Buffers;
using System.Runtime.Versioning;
using Benchmarks.IoUring;
using Benchmarks.Servers.Http;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.Servers.IoUring;

/// <summary>
/// One client connection on an io_uring loop. One multishot receive stays armed for its whole life
/// and takes its buffers from the loop's provided-buffer ring; every complete request in what
/// arrives is answered at once into the connection's send buffer, and the loop sends each
/// connection's responses in one submission per turn (a second buffer fills while one is in flight).
/// While more than <see cref="MaxQueuedBytes"/> wait to leave (a client that pipelines without
/// reading), or while a request waits on its scenario (a database), what arrives is kept unanswered,
/// and past <see cref="MaxKeptBytes"/> the receive is cancelled until the queue drains. A close the
/// server decides is graceful as the other raw servers' (the responses go out, the send side is
/// shut, the input drained for a bounded time); the connection's slot is freed once no send reads
/// its memory, and its completions after that are recognised by their generation and dropped.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class IoUringConnection : LoopConnection, IRingConnection
{
    public const int MaxQueuedBytes = 64 * 1024;
    public const int MaxKeptBytes = 256 * 1024;

    private readonly IoUringLoop _loop;
    private readonly HttpRequestProcessor _processor;
    private readonly KeptInput _kept = new();
    private SendBuffer _sending = new(4096);
    private SendBuffer _pending = new(4096);
    private bool _sendInFlight;
    private bool _receiving;
    private bool _receiveCancelled;
    private bool _held;
    private bool _released;

    public IoUringConnection(IoUringLoop loop, int fd, int slot, uint generation, HttpRequestProcessor processor)
        : base(loop.Limits)
    {
        _loop = loop;
        Fd = fd;
        Slot = slot;
        Generation = generation;
        _processor = processor;
    }

    public int Fd { get; }

    public int Slot { get; }

    public uint Generation { get; }

    /// <summary>Whether the loop has this connection in its list of sends for this turn.</summary>
    public bool FlushQueued { get; set; }

    private int Queued => _sending.Remaining + _pending.Length;

    protected override bool HasUnsent => _sendInFlight || _pending.Length > 0;

    public void Start() => Receive();

    /// <summary>A completion of this connection's multishot receive: <paramref name="data"/> is valid only during the call.</summary>
    public void OnReceived(int result, bool more, ReadOnlyMemory<byte> data)
    {
        if (!more)
        {
            _receiving = false;
        }

        if (result > 0 && !Closing)
        {
            OnData(data);
        }
        else if (result == 0 || (result < 0 && result != -ENoBufs && result != -ECanceled))
        {
            // End of input, or an error: whatever is still queued cannot matter to a client that is gone.
            Close();
        }

        if (!_receiving && !Closing && !_receiveCancelled)
        {
            // The kernel ended the multishot receive (out of provided buffers, a full completion queue): arm it again.
            Receive();
        }

        TryRelease();
    }

    /// <summary>A send's completion: the rest of the buffer goes next, then what filled meanwhile.</summary>
    public void OnSent(int result)
    {
        _sendInFlight = false;
        if (result < 0 || Closing)
        {
            Close();
            TryRelease();
            return;
        }

        _sending.Sent += result;
        if (_sending.Remaining > 0)
        {
            Send();
            return;
        }

        _sending.Clear();
        if (_pending.Length > 0)
        {
            _loop.QueueFlush(this);
        }
        else if (Finishing)
        {
            AfterLastWrite();
        }

        if (_held && Queued <= MaxQueuedBytes / 2)
        {
            _held = false;
            Continue();
        }
    }

    /// <summary>Before the loop enters the kernel: what this turn's requests answered leaves in one send.</summary>
    public void Flush()
    {
        FlushQueued = false;
        if (_sendInFlight || Closing || _pending.Length == 0)
        {
            return;
        }

        (_sending, _pending) = (_pending, _sending);
        Send();
    }

    /// <summary>On the loop thread, once a wait is over: the answer goes out, then what was kept behind it is served.</summary>
    public void Resume()
    {
        Waiting = false;
        if (Closing)
        {
            return;
        }

        if (Finishing)
        {
            // Stopped or timed out meanwhile: the answer is dropped.
            return;
        }

        var close = _processor.WritePending(_pending);
        _loop.QueueFlush(this);
        if (close)
        {
            Finish(drain: true);
            return;
        }

        Continue();
    }

    private void OnData(ReadOnlyMemory<byte> data)
    {
        if (DropAfterFinish(data.Length))
        {
            return;
        }

        if (Waiting || _held)
        {
            _kept.Append(data.Span);
            if (_kept.Length > MaxKeptBytes && _receiving && !_receiveCancelled)
            {
                _receiveCancelled = true;
                _loop.Cancel(this, IoUringLoop.OpReceive);
            }

            return;
        }

        if (_kept.Length == 0)
        {
            Serve(new ReadOnlySequence<byte>(data));
        }
        else
        {
            _kept.Append(data.Span);
            Serve(_kept.Sequence);
        }
    }

    /// <summary>Serves what was kept while held or waiting, and receives again if the receive was cancelled.</summary>
    private void Continue()
    {
        if (_kept.Length > 0)
        {
            Serve(_kept.Sequence);
        }

        if (_receiveCancelled && !Waiting && !_held && !Closing)
        {
            _receiveCancelled = false;
            if (!_receiving)
            {
                Receive();
            }
        }
    }

    /// <summary>Answers the complete requests in <paramref name="buffer"/> after the responses already pending, and keeps the rest.</summary>
    private void Serve(ReadOnlySequence<byte> buffer)
    {
        var processed = _processor.Process(ref buffer, _pending);
        _kept.Keep(buffer);
        Clock.Observe(partialRequest: _kept.Length > 0 && !processed.Pending);
        if (_pending.Length > 0)
        {
            _loop.QueueFlush(this);
        }

        if (processed.Pending)
        {
            Waiting = true;
            _ = PendingAnswer.WaitAsync(_processor, _loop, this);
        }
        else if (processed.Close)
        {
            Finish(drain: true);
        }
        else if (Queued > MaxQueuedBytes)
        {
            _held = true;
        }
    }

    protected override void AnswerRequestTimeout()
    {
        _processor.WriteRequestTimeout(_pending);
        _loop.QueueFlush(this);
    }

    protected override bool ShutdownSend()
    {
        _ = Shutdown(Fd, ShutWrite);
        return true;
    }

    protected override void ResumeInput()
    {
        if (!_receiving)
        {
            _receiveCancelled = false;
            Receive();
        }
    }

    private void Receive()
    {
        _receiving = true;
        _loop.Receive(this);
    }

    private void Send()
    {
        _sendInFlight = true;
        _loop.Send(this, _sending.Pointer(_sending.Sent), _sending.Remaining);
    }

    /// <summary>
    /// Shuts the socket both ways, which ends its receive and any send in flight, and cancels the
    /// receive as well; the descriptor is closed once no send reads this connection's memory.
    /// </summary>
    public override void Close()
    {
        if (!BeginClose())
        {
            return;
        }

        _ = Shutdown(Fd, ShutBoth);
        if (_receiving)
        {
            _loop.Cancel(this, IoUringLoop.OpReceive);
        }

        TryRelease();
    }

    private void TryRelease()
    {
        if (Closing && !_sendInFlight && !_released)
        {
            _released = true;
            _ = IoUringNative.Close(Fd);
            _loop.Release(this);
        }
    }
}

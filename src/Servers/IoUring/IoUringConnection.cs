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
internal sealed unsafe class IoUringConnection
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
    private bool _waiting;
    private bool _finishing;
    private bool _drainWhenWritten;
    private bool _draining;
    private long _drainDeadline;
    private long _drained;
    private bool _closing;
    private bool _released;

    public IoUringConnection(IoUringLoop loop, int fd, int slot, uint generation, HttpRequestProcessor processor)
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

    public ConnectionClock Clock { get; } = new();

    /// <summary>Whether the loop has this connection in its list of sends for this turn.</summary>
    public bool FlushQueued { get; set; }

    private int Queued => _sending.Remaining + _pending.Length;

    public void Start() => Receive();

    /// <summary>
    /// Answers nothing more; once every response is out, shuts the send side and drains the input
    /// (<paramref name="drain"/>) or closes at once (server stop).
    /// </summary>
    public void Finish(bool drain)
    {
        if (_finishing || _closing)
        {
            return;
        }

        _finishing = true;
        _drainWhenWritten = drain;
        if (!_sendInFlight && _pending.Length == 0)
        {
            AfterLastWrite();
        }
    }

    /// <summary>Called by the loop's heartbeat: ends a drain that took too long, a request too slow to arrive, an idle connection.</summary>
    public void Heartbeat(RawServerLimits limits, long now, bool stopping)
    {
        if (_closing)
        {
            return;
        }

        if (_draining || stopping)
        {
            // A stopping server waits for no client; a drain waits only so long.
            if (stopping || now > _drainDeadline)
            {
                Close();
            }

            return;
        }

        if (_waiting)
        {
            // The request was read; its answer waits on the scenario, not on the client.
            return;
        }

        switch (Clock.Check(limits, now))
        {
            case ConnectionTimeout.Request when !_finishing:
                _processor.WriteRequestTimeout(_pending);
                _loop.QueueFlush(this);
                Finish(drain: true);
                break;
            case ConnectionTimeout.KeepAlive when Queued > 0:
                // A client that has not read its responses for the whole time.
                Close();
                break;
            case ConnectionTimeout.KeepAlive:
                Finish(drain: true);
                break;
        }
    }

    /// <summary>A completion of this connection's multishot receive: <paramref name="data"/> is valid only during the call.</summary>
    public void OnReceived(int result, bool more, ReadOnlyMemory<byte> data)
    {
        if (!more)
        {
            _receiving = false;
        }

        if (result > 0 && !_closing)
        {
            OnData(data);
        }
        else if (result == 0 || (result < 0 && result != -ENoBufs && result != -ECanceled))
        {
            // End of input, or an error: whatever is still queued cannot matter to a client that is gone.
            Close();
        }

        if (!_receiving && !_closing && !_receiveCancelled)
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
        if (result < 0 || _closing)
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
        else if (_finishing)
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
        if (_sendInFlight || _closing || _pending.Length == 0)
        {
            return;
        }

        (_sending, _pending) = (_pending, _sending);
        Send();
    }

    /// <summary>On the loop thread, once a wait is over: the answer goes out, then what was kept behind it is served.</summary>
    public void Resume()
    {
        _waiting = false;
        if (_closing)
        {
            return;
        }

        if (_finishing)
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
        if (_draining || _finishing)
        {
            // After the server decided to close, what the client sends is read and dropped, never answered.
            _drained += data.Length;
            if (_drained > RawServerLimits.MaxDrainBytes)
            {
                Close();
            }

            return;
        }

        if (_waiting || _held)
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

        if (_receiveCancelled && !_waiting && !_held && !_closing)
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
            _waiting = true;
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

    private void AfterLastWrite()
    {
        if (!_drainWhenWritten)
        {
            Close();
            return;
        }

        _ = Shutdown(Fd, ShutWrite);
        _draining = true;
        _drainDeadline = Environment.TickCount64 + (long)_loop.Limits.DrainTimeout.TotalMilliseconds;
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
    public void Close()
    {
        if (_closing)
        {
            return;
        }

        _closing = true;
        _ = Shutdown(Fd, ShutBoth);
        if (_receiving)
        {
            _loop.Cancel(this, IoUringLoop.OpReceive);
        }

        TryRelease();
    }

    private void TryRelease()
    {
        if (_closing && !_sendInFlight && !_released)
        {
            _released = true;
            _ = IoUringNative.Close(Fd);
            _loop.Release(this);
        }
    }
}

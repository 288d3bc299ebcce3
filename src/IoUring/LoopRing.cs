using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.IoUring;

/// <summary>
/// The ring an event loop's thread owns, with what every loop on it needs: a provided-buffer ring
/// its multishot receives read into, an eventfd through which other threads wake it, and the
/// submissions a loop makes (multishot accept and receive, send, cancel, timeout, the eventfd's
/// read), each tagged with the caller's user data. A turn publishes the buffers given back, submits
/// what is queued, waits for at least one completion and hands each to the loop. Made and used on the loop's thread alone
/// (a single issuer); only <see cref="Wake"/> is for other threads.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class LoopRing : IDisposable
{
    private readonly IoUringRing _ring;
    private readonly BufferRing _buffers;
    private long* _eventValue;
    private int _eventFd;

    private LoopRing(IoUringRing ring, BufferRing buffers, long* eventValue, int eventFd)
    {
        _ring = ring;
        _buffers = buffers;
        _eventValue = eventValue;
        _eventFd = eventFd;
    }

    public BufferRing Buffers => _buffers;

    /// <summary>
    /// A ring of <paramref name="entries"/> with <paramref name="bufferCount"/> provided buffers of
    /// <paramref name="bufferSize"/> bytes; an <see cref="IOException"/> naming the cause when the
    /// kernel refuses.
    /// </summary>
    public static LoopRing Create(uint entries, bool sqPoll, int bufferCount, int bufferSize)
    {
        var ring = IoUringRing.Create(entries, sqPoll, out var error)
            ?? throw new IOException($"io_uring_setup failed: {IoUringProbe.Describe(error)}");
        BufferRing? buffers = null;
        try
        {
            buffers = BufferRing.Create(ring, 0, bufferCount, bufferSize, out error)
                ?? throw new IOException($"registering the provided-buffer ring failed: {IoUringProbe.Describe(error)}");
            var eventFd = EventFd(0, EfdCloexec);
            if (eventFd < 0)
            {
                throw new IOException($"eventfd failed: {IoUringProbe.Describe(Marshal.GetLastPInvokeError())}");
            }

            return new LoopRing(ring, buffers, (long*)NativeMemory.AllocZeroed(sizeof(long)), eventFd);
        }
        catch
        {
            buffers?.Dispose();
            ring.Dispose();
            throw;
        }
    }

    /// <summary>From any thread: the loop's next eventfd read completes (nothing once the ring is disposed).</summary>
    public void Wake()
    {
        var one = 1L;
        if (Volatile.Read(ref _eventFd) is var fd and >= 0)
        {
            _ = Write(fd, &one, sizeof(long));
        }
    }

    /// <summary>A read of the eventfd: it completes when another thread wakes the loop.</summary>
    public void ReadWakeup(ulong userData)
    {
        var sqe = _ring.Next();
        sqe->Opcode = OpRead;
        sqe->Fd = _eventFd;
        sqe->Address = (ulong)_eventValue;
        sqe->Length = sizeof(long);
        sqe->UserData = userData;
    }

    public void Accept(int listenFd, ulong userData)
    {
        var sqe = _ring.Next();
        sqe->Opcode = OpAccept;
        sqe->Fd = listenFd;
        sqe->IoPriority = AcceptMultishot;
        sqe->OpFlags = SockCloexec;
        sqe->UserData = userData;
    }

    /// <summary>A multishot receive into the provided buffers: a completion per arrival while it lasts.</summary>
    public void Receive(int fd, ulong userData)
    {
        var sqe = _ring.Next();
        sqe->Opcode = OpRecv;
        sqe->Fd = fd;
        sqe->IoPriority = RecvMultishot;
        sqe->Flags = SqeBufferSelect;
        sqe->BufferGroup = _buffers.Group;
        sqe->UserData = userData;
    }

    /// <summary>Sends <paramref name="length"/> bytes at <paramref name="data"/>, which stay valid until the completion.</summary>
    public void Send(int fd, byte* data, int length, ulong userData)
    {
        var sqe = _ring.Next();
        sqe->Opcode = OpSend;
        sqe->Fd = fd;
        sqe->Address = (ulong)data;
        sqe->Length = (uint)length;
        sqe->OpFlags = MsgNoSignal;
        sqe->UserData = userData;
    }

    /// <summary>Cancels the operation tagged <paramref name="target"/>; its last completion arrives as ECANCELED (or not at all, if it had ended).</summary>
    public void Cancel(ulong target, ulong userData)
    {
        var sqe = _ring.Next();
        sqe->Opcode = OpAsyncCancel;
        sqe->Fd = -1;
        sqe->Address = target;
        sqe->UserData = userData;
    }

    /// <summary>A timeout of the timespec at <paramref name="time"/> (valid until it completes).</summary>
    public void Timeout(void* time, ulong userData)
    {
        var sqe = _ring.Next();
        sqe->Opcode = OpTimeout;
        sqe->Fd = -1;
        sqe->Address = (ulong)time;
        sqe->Length = 1;
        sqe->UserData = userData;
    }

    /// <summary>
    /// One turn: the buffers given back are published, what is queued is submitted, the call waits
    /// for a completion, and each completion the kernel has posted is handed to
    /// <paramref name="completions"/>, then given back.
    /// </summary>
    public void Turn(ILoopCompletions completions)
    {
        _buffers.Publish();
        var result = _ring.Submit(1);
        if (result < 0 && result != -EBusy && result != -EAgain)
        {
            throw new IOException($"io_uring_enter failed: {IoUringProbe.Describe(-result)}");
        }

        var batch = _ring.Completions();
        for (uint i = 0; i < batch.Count; i++)
        {
            ref readonly var cqe = ref batch[i];
            completions.OnCompletion(cqe.UserData, cqe.Result, cqe.Flags);
        }

        _ring.Advance(batch.Count);
    }

    /// <summary>
    /// The bytes a receive completion carries in its provided buffer (none for an end, an error or
    /// no buffer); valid until <see cref="GiveBack"/>.
    /// </summary>
    public ReadOnlyMemory<byte> Received(int result, uint flags) =>
        (flags & CqeFBuffer) != 0 && result > 0 ? _buffers.Read((ushort)(flags >> CqeBufferShift), result) : default;

    /// <summary>A receive completion's provided buffer, if it had one, goes back to the kernel (published on the next turn).</summary>
    public void GiveBack(uint flags)
    {
        if ((flags & CqeFBuffer) != 0)
        {
            _buffers.Give((ushort)(flags >> CqeBufferShift));
        }
    }

    public void Dispose()
    {
        var eventFd = Interlocked.Exchange(ref _eventFd, -1);
        _buffers.Dispose();
        _ring.Dispose();
        if (eventFd >= 0)
        {
            _ = Close(eventFd);
        }

        NativeMemory.Free(_eventValue);
        _eventValue = null;
    }
}

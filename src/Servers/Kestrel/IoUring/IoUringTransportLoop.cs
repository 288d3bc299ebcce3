using System.Buffers;
using System.Collections.Concurrent;
using System.Net;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Benchmarks.IoUring;
using Microsoft.AspNetCore.Connections;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.Servers.Kestrel.IoUring;

/// <summary>
/// One ring of the io_uring transport, on a thread of its own: a multishot accept on the
/// endpoint's socket, a multishot receive per connection into the ring's provided buffers, and the
/// sends Kestrel's output asks for. Other threads hand it work through a queue and an eventfd the
/// ring reads; each turn is one io_uring_enter that submits the turn's work and waits for the next
/// completions. The ring is made and used on this thread alone (a single issuer).
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class IoUringTransportLoop
{
    private const byte OpAccept = 1;
    private const byte OpReceive = 2;
    private const byte OpSend = 3;
    private const byte OpWakeup = 4;
    private const byte OpCancel = 5;
    private const uint RingEntries = 1024;
    private const int BufferCount = 2048;
    private const int BufferSize = 4096;

    private readonly int _index;
    private readonly int _listenFd;
    private readonly EndPoint _localEndPoint;
    private readonly Action<ConnectionContext> _accepted;
    private readonly MemoryPool<byte> _pool;
    private readonly bool _inlineScheduling;
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly ConcurrentQueue<(IoUringTransportConnection Connection, Work Work)> _work = new();
    private readonly Stack<int> _freeSlots = new();
    private IoUringTransportConnection?[] _connections = new IoUringTransportConnection?[64];
    private uint[] _generations = new uint[64];
    private int _slotsUsed;
    private int _count;
    private IoUringRing? _ring;
    private BufferRing? _buffers;
    private int _eventFd = -1;
    private long* _eventValue;
    private bool _accepting;
    private volatile bool _stopAccepting;
    private volatile bool _stopRequested;
    private bool _stopping;
    private long _id;
    private int _threadId;
    private int _wakePending;

    public IoUringTransportLoop(int index, int listenFd, EndPoint localEndPoint, MemoryPool<byte> pool, bool inlineScheduling, Action<ConnectionContext> accepted)
    {
        _inlineScheduling = inlineScheduling;
        _pool = pool;
        _index = index;
        _listenFd = listenFd;
        _localEndPoint = localEndPoint;
        _accepted = accepted;
    }

    /// <summary>What another thread asks of the ring for a connection.</summary>
    public enum Work
    {
        Send,
        Resume,
        Close,
    }

    public Task Stopped => _stopped.Task;

    public Task StartAsync()
    {
        var thread = new Thread(Run) { IsBackground = true, Name = $"io_uring transport {_index}" };
        thread.Start();
        return _started.Task;
    }

    /// <summary>From any thread: no more connections are accepted.</summary>
    public void StopAccepting()
    {
        _stopAccepting = true;
        Wake();
    }

    /// <summary>From any thread: the ring closes what it holds and ends.</summary>
    public void RequestStop()
    {
        _stopAccepting = true;
        _stopRequested = true;
        Wake();
    }

    /// <summary>From any thread: the ring does <paramref name="work"/> for <paramref name="connection"/> on its next turn.</summary>
    public void Post(IoUringTransportConnection connection, Work work)
    {
        if (Environment.CurrentManagedThreadId == _threadId)
        {
            // Already on the ring's thread (a send loop going on from a completed send): done now.
            Do(connection, work);
            return;
        }

        _work.Enqueue((connection, work));
        if (Interlocked.Exchange(ref _wakePending, 1) == 0)
        {
            // One eventfd write wakes the ring for everything queued until it reads it.
            Wake();
        }
    }

    public void Receive(IoUringTransportConnection connection)
    {
        var sqe = _ring!.Next();
        sqe->Opcode = IoUringNative.OpRecv;
        sqe->Fd = connection.Fd;
        sqe->IoPriority = RecvMultishot;
        sqe->Flags = SqeBufferSelect;
        sqe->BufferGroup = _buffers!.Group;
        sqe->UserData = Data(OpReceive, connection);
    }

    public void Send(IoUringTransportConnection connection, byte* data, int length)
    {
        var sqe = _ring!.Next();
        sqe->Opcode = IoUringNative.OpSend;
        sqe->Fd = connection.Fd;
        sqe->Address = (ulong)data;
        sqe->Length = (uint)length;
        sqe->OpFlags = MsgNoSignal;
        sqe->UserData = Data(OpSend, connection);
    }

    public void CancelReceive(IoUringTransportConnection connection) => Cancel(Data(OpReceive, connection));

    /// <summary>The connection's descriptor is closed: its slot is free, and completions still on their way carry the old generation.</summary>
    public void Release(IoUringTransportConnection connection)
    {
        _connections[connection.Slot] = null;
        _generations[connection.Slot]++;
        _freeSlots.Push(connection.Slot);
        _count--;
    }

    private static ulong Data(byte op, IoUringTransportConnection connection) => op | ((ulong)(uint)connection.Slot << 8) | ((ulong)connection.Generation << 32);

    private void Cancel(ulong userData)
    {
        var sqe = _ring!.Next();
        sqe->Opcode = IoUringNative.OpAsyncCancel;
        sqe->Fd = -1;
        sqe->Address = userData;
        sqe->UserData = OpCancel | (0xFFFFFFul << 8);
    }

    private void Wake()
    {
        var one = 1L;
        if (Volatile.Read(ref _eventFd) is var fd and >= 0)
        {
            _ = IoUringNative.Write(fd, &one, sizeof(long));
        }
    }

    private void Run()
    {
        _threadId = Environment.CurrentManagedThreadId;
        try
        {
            _ring = IoUringRing.Create(RingEntries, sqPoll: false, out var error)
                ?? throw new IOException($"io_uring_setup failed: {IoUringProbe.Describe(error)}");
            _buffers = BufferRing.Create(_ring, 0, BufferCount, BufferSize, out error)
                ?? throw new IOException($"registering the provided-buffer ring failed: {IoUringProbe.Describe(error)}");
            _eventValue = (long*)NativeMemory.AllocZeroed(sizeof(long));
            var eventFd = EventFd(0, EfdCloexec);
            if (eventFd < 0)
            {
                throw new IOException($"eventfd failed: {IoUringProbe.Describe(Marshal.GetLastPInvokeError())}");
            }

            Volatile.Write(ref _eventFd, eventFd);
            Accept();
            ReadWakeup();
        }
        catch (Exception ex)
        {
            Cleanup();
            _started.TrySetException(ex);
            _stopped.TrySetResult();
            return;
        }

        _started.TrySetResult();
        try
        {
            Loop();
            _stopped.TrySetResult();
        }
        catch (Exception ex)
        {
            _stopped.TrySetException(ex);
        }
        finally
        {
            Cleanup();
        }
    }

    private void Loop()
    {
        var ring = _ring!;
        while (true)
        {
            DoQueuedWork();
            Stop();
            _buffers!.Publish();
            if (_stopping && _count == 0)
            {
                return;
            }

            var result = ring.Submit(1);
            if (result < 0 && result != -EBusy && result != -EAgain)
            {
                throw new IOException($"io_uring_enter failed: {IoUringProbe.Describe(-result)}");
            }

            var batch = ring.Completions();
            for (uint i = 0; i < batch.Count; i++)
            {
                ref readonly var cqe = ref batch[i];
                Complete(cqe.UserData, cqe.Result, cqe.Flags);
            }

            ring.Advance(batch.Count);
        }
    }

    private void Complete(ulong userData, int result, uint flags)
    {
        var op = (byte)userData;
        switch (op)
        {
            case OpAccept:
                Accepted(result, flags);
                return;
            case OpWakeup:
                Woken();
                return;
            case OpCancel:
                return;
        }

        var slot = (int)((userData >> 8) & 0xFFFFFF);
        var connection = slot < _slotsUsed && _generations[slot] == (uint)(userData >> 32) ? _connections[slot] : null;
        if (op == OpReceive)
        {
            var id = (ushort)(flags >> CqeBufferShift);
            var hasBuffer = (flags & CqeFBuffer) != 0;
            connection?.OnReceived(result, (flags & CqeFMore) != 0, hasBuffer && result > 0 ? _buffers!.Read(id, result).Span : default);
            if (hasBuffer)
            {
                // The bytes are in the connection's input pipe by now: the buffer goes back to the kernel.
                _buffers!.Give(id);
            }
        }
        else if (op == OpSend)
        {
            connection?.OnSent(result);
        }
    }

    private void Accepted(int result, uint flags)
    {
        if ((flags & CqeFMore) == 0)
        {
            _accepting = false;
        }

        if (result >= 0)
        {
            if (_stopAccepting)
            {
                _ = IoUringNative.Close(result);
            }
            else
            {
                Add(result);
            }
        }

        if (!_accepting && !_stopAccepting)
        {
            Accept();
        }
    }

    private void Add(int fd)
    {
        NoDelay(fd);
        if (!_freeSlots.TryPop(out var slot))
        {
            slot = _slotsUsed++;
            if (slot == _connections.Length)
            {
                Array.Resize(ref _connections, slot * 2);
                Array.Resize(ref _generations, slot * 2);
            }
        }

        var id = $"iouring-{_index}-{++_id}";
        var connection = new IoUringTransportConnection(this, fd, slot, _generations[slot], id, _localEndPoint, _pool, _inlineScheduling);
        _connections[slot] = connection;
        _count++;
        connection.Start();
        _accepted(connection.Context);
    }

    private void Accept()
    {
        var sqe = _ring!.Next();
        sqe->Opcode = IoUringNative.OpAccept;
        sqe->Fd = _listenFd;
        sqe->IoPriority = AcceptMultishot;
        sqe->OpFlags = SockCloexec;
        sqe->UserData = OpAccept;
        _accepting = true;
    }

    private void ReadWakeup()
    {
        var sqe = _ring!.Next();
        sqe->Opcode = IoUringNative.OpRead;
        sqe->Fd = _eventFd;
        sqe->Address = (ulong)_eventValue;
        sqe->Length = sizeof(long);
        sqe->UserData = OpWakeup;
    }

    private void Woken()
    {
        Volatile.Write(ref _wakePending, 0);
        DoQueuedWork();
        ReadWakeup();
    }

    private void DoQueuedWork()
    {
        while (_work.TryDequeue(out var item))
        {
            Do(item.Connection, item.Work);
        }
    }

    private void Do(IoUringTransportConnection connection, Work work)
    {
        if (_connections[connection.Slot] != connection)
        {
            // Closed and released already: its descriptor and slot may be another's by now.
            if (work == Work.Send)
            {
                connection.SendRefused();
            }

            return;
        }

        switch (work)
        {
            case Work.Send:
                connection.SendQueued();
                break;
            case Work.Resume:
                connection.ResumeReceiving();
                break;
            case Work.Close:
                connection.Close();
                break;
        }
    }

    /// <summary>Each turn: a stop asked for (before the eventfd existed, too) is carried out.</summary>
    private void Stop()
    {
        if (_stopAccepting && _accepting)
        {
            Cancel(OpAccept);
            _accepting = false;
        }

        if (_stopRequested && !_stopping)
        {
            _stopping = true;
            for (var i = 0; i < _slotsUsed; i++)
            {
                _connections[i]?.Abort();
            }
        }
    }

    private void Cleanup()
    {
        var eventFd = Interlocked.Exchange(ref _eventFd, -1);
        _buffers?.Dispose();
        _ring?.Dispose();
        if (eventFd >= 0)
        {
            _ = IoUringNative.Close(eventFd);
        }

        NativeMemory.Free(_eventValue);
        _eventValue = null;
    }
}

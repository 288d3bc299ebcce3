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
internal sealed unsafe class IoUringTransportLoop : ILoopCompletions
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
    private readonly ConnectionSlots<IoUringTransportConnection> _connections = new();
    private LoopRing? _ring;
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

    public void Receive(IoUringTransportConnection connection) => _ring!.Receive(connection.Fd, Data(OpReceive, connection));

    public void Send(IoUringTransportConnection connection, byte* data, int length) => _ring!.Send(connection.Fd, data, length, Data(OpSend, connection));

    public void CancelReceive(IoUringTransportConnection connection) => Cancel(Data(OpReceive, connection));

    /// <summary>The connection's descriptor is closed: its slot is free, and completions still on their way carry the old generation.</summary>
    public void Release(IoUringTransportConnection connection) => _connections.Release(connection.Slot);

    private static ulong Data(byte op, IoUringTransportConnection connection) => ConnectionSlots<IoUringTransportConnection>.Data(op, connection.Slot, connection.Generation);

    private void Cancel(ulong userData) => _ring!.Cancel(userData, OpCancel | (0xFFFFFFul << 8));

    private void Wake() => Volatile.Read(ref _ring)?.Wake();

    private void Run()
    {
        _threadId = Environment.CurrentManagedThreadId;
        try
        {
            Volatile.Write(ref _ring, LoopRing.Create(RingEntries, sqPoll: false, BufferCount, BufferSize));
            Accept();
            ReadWakeup();
        }
        catch (Exception ex)
        {
            _ring?.Dispose();
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
            _ring.Dispose();
        }
    }

    private void Loop()
    {
        var ring = _ring!;
        while (true)
        {
            DoQueuedWork();
            Stop();
            if (_stopping && _connections.Count == 0)
            {
                return;
            }

            ring.Turn(this);
        }
    }

    void ILoopCompletions.OnCompletion(ulong userData, int result, uint flags)
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

        var connection = _connections.Get(userData);
        if (op == OpReceive)
        {
            connection?.OnReceived(result, (flags & CqeFMore) != 0, _ring!.Received(result, flags).Span);
            // The bytes are in the connection's input pipe by now: the buffer goes back to the kernel.
            _ring!.GiveBack(flags);
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
        var (slot, generation) = _connections.Reserve();
        var id = $"iouring-{_index}-{++_id}";
        var connection = new IoUringTransportConnection(this, fd, slot, generation, id, _localEndPoint, _pool, _inlineScheduling);
        _connections.Set(slot, connection);
        connection.Start();
        _accepted(connection.Context);
    }

    private void Accept()
    {
        _ring!.Accept(_listenFd, OpAccept);
        _accepting = true;
    }

    private void ReadWakeup() => _ring!.ReadWakeup(OpWakeup);

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
        if (_connections.At(connection.Slot) != connection)
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
            for (var i = 0; i < _connections.Used; i++)
            {
                _connections.At(i)?.Abort();
            }
        }
    }
}

using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Benchmarks.IoUring;
using Benchmarks.Servers.Http;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.Servers.IoUring;

/// <summary>
/// One io_uring event loop on its own thread, with its own ring and its own listening socket
/// (SO_REUSEPORT spreads connections over the loops). Each turn is one io_uring_enter: it submits
/// the turn's sends and re-armed operations and waits for the next completions, which are then
/// served in a batch. A multishot accept takes new connections; each connection's multishot
/// receive reads into the loop's provided-buffer ring; an eventfd read wakes the loop for
/// connections whose wait is over and for stop; a timeout is the heartbeat that enforces the time
/// limits. At the connection limit, or out of descriptors, the accept is cancelled until the
/// heartbeat finds room again.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class IoUringLoop : IEventLoop, IResumeTarget<IoUringConnection>, ILoopCompletions
{
    public const byte OpAccept = 1;
    public const byte OpReceive = 2;
    public const byte OpSend = 3;
    public const byte OpWakeup = 4;
    public const byte OpHeartbeat = 5;
    public const byte OpCancel = 6;

    private const uint RingEntries = 1024;
    private const int BufferCount = 2048;
    private const int BufferSize = 4096;
    private const long HeartbeatNanoseconds = 250_000_000;

    private readonly Socket _listenSocket;
    private readonly Func<HttpRequestProcessor> _processorFactory;
    private readonly bool _sqPoll;
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly ConcurrentQueue<IoUringConnection> _resumed = new();
    private readonly List<IoUringConnection> _flushes = [];
    private readonly ConnectionSlots<IoUringConnection> _connections = new();
    private LoopRing? _ring;
    private long* _heartbeatTime;
    private bool _accepting;
    private bool _acceptPaused;
    private volatile bool _stopRequested;
    private bool _stopping;

    public IoUringLoop(Socket listenSocket, Func<HttpRequestProcessor> processorFactory, RawServerLimits limits, bool sqPoll)
    {
        _listenSocket = listenSocket;
        _processorFactory = processorFactory;
        _sqPoll = sqPoll;
        Limits = limits;
    }

    public RawServerLimits Limits { get; }

    public Task Stopped => _stopped.Task;

    public Task StartAsync(int index)
    {
        var thread = new Thread(Run) { IsBackground = true, Name = $"io_uring loop {index}" };
        thread.Start();
        return _started.Task;
    }

    /// <summary>Asks the loop (from any thread) to stop accepting and close its connections once their writes are out.</summary>
    public void RequestStop()
    {
        _stopRequested = true;
        Wake();
    }

    /// <summary>From any thread: a connection whose wait is over resumes on this loop's thread.</summary>
    public void Post(IoUringConnection connection)
    {
        _resumed.Enqueue(connection);
        Wake();
    }

    public void QueueFlush(IoUringConnection connection)
    {
        if (!connection.FlushQueued)
        {
            connection.FlushQueued = true;
            _flushes.Add(connection);
        }
    }

    public void Receive(IoUringConnection connection) => _ring!.Receive(connection.Fd, Data(OpReceive, connection));

    public void Send(IoUringConnection connection, byte* data, int length) => _ring!.Send(connection.Fd, data, length, Data(OpSend, connection));

    /// <summary>Cancels the connection's operation <paramref name="op"/>; its last completion arrives as ECANCELED (or not at all, if it had ended).</summary>
    public void Cancel(IoUringConnection connection, byte op) => Cancel(Data(op, connection));

    /// <summary>The connection's slot is free again; completions still on their way carry the old generation.</summary>
    public void Release(IoUringConnection connection) => _connections.Release(connection.Slot);

    private static ulong Data(byte op, IoUringConnection connection) => ConnectionSlots<IoUringConnection>.Data(op, connection.Slot, connection.Generation);

    private void Cancel(ulong userData) => _ring!.Cancel(userData, OpCancel | (0xFFFFFFul << 8));

    private void Wake() => Volatile.Read(ref _ring)?.Wake();

    private void Run()
    {
        try
        {
            // The ring is made on the thread that uses it: it is set up for a single issuer.
            _heartbeatTime = (long*)NativeMemory.AllocZeroed(2 * sizeof(long));
            _heartbeatTime[1] = HeartbeatNanoseconds;
            var ring = LoopRing.Create(RingEntries, _sqPoll, BufferCount, BufferSize);
            Volatile.Write(ref _ring, ring);
            if (_stopRequested)
            {
                // Asked to stop before the eventfd was there to wake it: it stops on its first turn.
                ring.Wake();
            }

            Accept();
            ReadWakeup();
            ArmHeartbeat();
        }
        catch (Exception ex)
        {
            Cleanup();
            _started.TrySetException(ex);
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
            foreach (var connection in _flushes)
            {
                connection.Flush();
            }

            _flushes.Clear();
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
            case OpHeartbeat:
                Beat();
                return;
            case OpCancel:
                return;
        }

        var connection = _connections.Get(userData);
        var more = (flags & CqeFMore) != 0;
        if (op == OpReceive)
        {
            connection?.OnReceived(result, more, _ring!.Received(result, flags));
            // The bytes are served or kept by now: the buffer goes back to the kernel.
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
            if (_stopping)
            {
                _ = IoUringNative.Close(result);
            }
            else
            {
                Add(result);
            }
        }
        else if (result is -EMFile or -ENFile or -ENoMem or -ENoBufs)
        {
            // Out of descriptors: stop accepting until the heartbeat finds one free.
            PauseAccepting();
        }

        if (!_accepting && !_acceptPaused && !_stopping)
        {
            Accept();
        }
    }

    private void Add(int fd)
    {
        NoDelay(fd);
        var (slot, generation) = _connections.Reserve();
        var connection = new IoUringConnection(this, fd, slot, generation, _processorFactory());
        _connections.Set(slot, connection);
        connection.Start();
        if (_connections.Count >= Limits.MaxConnections)
        {
            // At this loop's share of the connection limit: further clients wait in the backlog.
            PauseAccepting();
        }
    }

    private void Accept()
    {
        _ring!.Accept((int)_listenSocket.Handle, OpAccept);
        _accepting = true;
    }

    private void PauseAccepting()
    {
        if (_acceptPaused)
        {
            return;
        }

        _acceptPaused = true;
        if (_accepting)
        {
            Cancel(OpAccept);
        }
    }

    private void ReadWakeup() => _ring!.ReadWakeup(OpWakeup);

    private void ArmHeartbeat() => _ring!.Timeout(_heartbeatTime, OpHeartbeat);

    private void Woken()
    {
        while (_resumed.TryDequeue(out var connection))
        {
            try
            {
                connection.Resume();
            }
            catch (Exception ex)
            {
                Console.Error.WriteLine($"io_uring: resuming a connection failed: {ex.Message}");
                connection.Close();
            }
        }

        if (_stopRequested && !_stopping)
        {
            _stopping = true;
            if (_accepting)
            {
                Cancel(OpAccept);
            }

            ForEachConnection(c => c.Finish(drain: false));
        }

        ReadWakeup();
    }

    private void Beat()
    {
        var now = Environment.TickCount64;
        var stopping = _stopping;
        ForEachConnection(c => c.Heartbeat(now, stopping));
        if (_acceptPaused && !_stopping && _connections.Count < Limits.MaxConnections)
        {
            _acceptPaused = false;
            if (!_accepting)
            {
                Accept();
            }
        }

        ArmHeartbeat();
    }

    private void ForEachConnection(Action<IoUringConnection> action)
    {
        for (var i = 0; i < _connections.Used; i++)
        {
            if (_connections.At(i) is { } connection)
            {
                action(connection);
            }
        }
    }

    private void Cleanup()
    {
        _ring?.Dispose();
        NativeMemory.Free(_heartbeatTime);
        _heartbeatTime = null;
    }
}

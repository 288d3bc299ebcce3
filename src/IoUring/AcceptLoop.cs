using System.Runtime.Versioning;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.IoUring;

/// <summary>
/// An io_uring event loop that accepts on one listening socket, on a thread of its own with its own
/// ring (<see cref="LoopRing"/>; a single issuer): a multishot accept takes connections, each
/// connection's multishot receive reads into the ring's provided buffers and its sends go out from
/// its own memory, and an eventfd read wakes the loop for work other threads hand it. Each turn is
/// one io_uring_enter that submits the turn's work and waits for the next completions. What differs
/// between the loops on it (the raw server's and Kestrel's transport) is what a connection is, what a
/// wake-up brings and what a turn does first; the ring, the accept and the completions are here.
/// </summary>
[SupportedOSPlatform("linux")]
internal abstract unsafe class AcceptLoop<TConnection> : ILoopCompletions
    where TConnection : class, IRingConnection
{
    public const byte OpAccept = 1;
    public const byte OpReceive = 2;
    public const byte OpSend = 3;
    public const byte OpWakeup = 4;
    public const byte OpCancel = 5;

    /// <summary>The first operation code a loop may give submissions of its own (<see cref="OnOwnCompletion"/>).</summary>
    protected const byte FirstOwnOp = 8;

    private const uint RingEntries = 1024;
    private const int BufferCount = 2048;
    private const int BufferSize = 4096;

    private readonly bool _sqPoll;
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private LoopRing? _ring;
    private bool _accepting;
    private bool _acceptCancelled;
    private bool _acceptPaused;
    private int _threadId;

    protected AcceptLoop(bool sqPoll) => _sqPoll = sqPoll;

    public Task Stopped => _stopped.Task;

    /// <summary>The loop's connections by slot.</summary>
    protected ConnectionSlots<TConnection> Connections { get; } = new();

    /// <summary>The ring, from the loop's thread.</summary>
    protected LoopRing Ring => _ring!;

    /// <summary>Whether the caller runs on the loop's thread.</summary>
    protected bool OnLoopThread => Environment.CurrentManagedThreadId == _threadId;

    /// <summary>The listening socket's descriptor.</summary>
    protected abstract int ListenFd { get; }

    /// <summary>Whether a connection accepted now is kept; false closes it at once and arms no further accept.</summary>
    protected abstract bool TakesConnections { get; }

    /// <summary>Whether running out of descriptors pauses the accept (until <see cref="ResumeAccepting"/>) rather than arming it again at once.</summary>
    protected virtual bool PausesWhenOutOfDescriptors => false;

    /// <summary>Starts the loop's thread; completes once it accepts, or fails with why it could not start.</summary>
    protected Task StartThreadAsync(string name)
    {
        var thread = new Thread(Run) { IsBackground = true, Name = name };
        thread.Start();
        return _started.Task;
    }

    public void Receive(TConnection connection) => Ring.Receive(connection.Fd, Data(OpReceive, connection));

    public void Send(TConnection connection, byte* data, int length) => Ring.Send(connection.Fd, data, length, Data(OpSend, connection));

    /// <summary>Cancels the connection's operation <paramref name="op"/>; its last completion arrives as ECANCELED (or not at all, if it had ended).</summary>
    public void Cancel(TConnection connection, byte op) => Cancel(Data(op, connection));

    /// <summary>The connection's descriptor is closed: its slot is free, and completions still on their way carry the old generation.</summary>
    public void Release(TConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        Connections.Release(connection.Slot);
    }

    protected static ulong Data(byte op, TConnection connection)
    {
        ArgumentNullException.ThrowIfNull(connection);
        return ConnectionSlots<TConnection>.Data(op, connection.Slot, connection.Generation);
    }

    /// <summary>From any thread: the loop's next eventfd read completes (nothing before its ring is made).</summary>
    protected void Wake() => Volatile.Read(ref _ring)?.Wake();

    /// <summary>A new connection on <paramref name="fd"/> in <paramref name="slot"/>.</summary>
    protected abstract TConnection Create(int fd, int slot, uint generation);

    /// <summary>A connection was placed and started.</summary>
    protected virtual void OnAdded(TConnection connection)
    {
    }

    /// <summary>The ring is made and its accept and eventfd read are queued: the loop arms what else it needs.</summary>
    protected virtual void OnStarted()
    {
    }

    /// <summary>Before each turn; false ends the loop.</summary>
    protected abstract bool BeforeTurn();

    /// <summary>The eventfd read completed: another thread woke the loop (the read is armed again after this).</summary>
    protected abstract void OnWoken();

    /// <summary>A completion of the loop's own operations (<see cref="FirstOwnOp"/> and up).</summary>
    protected virtual void OnOwnCompletion(byte op, int result, uint flags)
    {
    }

    /// <summary>The loop has ended (or never started): what it allocated goes.</summary>
    protected virtual void OnCleanup()
    {
    }

    /// <summary>No accept is armed again until <see cref="ResumeAccepting"/> (at a connection limit, out of descriptors).</summary>
    protected void PauseAccepting()
    {
        if (_acceptPaused)
        {
            return;
        }

        _acceptPaused = true;
        CancelAccept();
    }

    protected void ResumeAccepting()
    {
        if (!_acceptPaused)
        {
            return;
        }

        _acceptPaused = false;
        if (!_accepting && TakesConnections)
        {
            Accept();
        }
    }

    /// <summary>
    /// The armed accept, if any, is cancelled once: it counts as armed until its last completion
    /// arrives, so a resume meanwhile does not arm a second one beside it.
    /// </summary>
    protected void CancelAccept()
    {
        if (_accepting && !_acceptCancelled)
        {
            Cancel(OpAccept);
            _acceptCancelled = true;
        }
    }

    private void Cancel(ulong userData) => Ring.Cancel(userData, OpCancel | (0xFFFFFFul << 8));

    private void Run()
    {
        _threadId = Environment.CurrentManagedThreadId;
        try
        {
            // The ring is made on the thread that uses it: it is set up for a single issuer.
            Volatile.Write(ref _ring, LoopRing.Create(RingEntries, _sqPoll, BufferCount, BufferSize));
            Accept();
            Ring.ReadWakeup(OpWakeup);
            OnStarted();
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
            while (BeforeTurn())
            {
                Ring.Turn(this);
            }

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

    private void Cleanup()
    {
        _ring?.Dispose();
        OnCleanup();
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
                OnWoken();
                Ring.ReadWakeup(OpWakeup);
                return;
            case OpCancel:
                return;
            case OpReceive:
                Connections.Get(userData)?.OnReceived(result, (flags & CqeFMore) != 0, Ring.Received(result, flags));
                // The bytes are served or kept by now: the buffer goes back to the kernel.
                Ring.GiveBack(flags);
                return;
            case OpSend:
                Connections.Get(userData)?.OnSent(result);
                return;
            default:
                OnOwnCompletion(op, result, flags);
                return;
        }
    }

    private void Accepted(int result, uint flags)
    {
        if ((flags & CqeFMore) == 0)
        {
            _accepting = false;
            _acceptCancelled = false;
        }

        if (result >= 0)
        {
            if (TakesConnections)
            {
                Add(result);
            }
            else
            {
                _ = IoUringNative.Close(result);
            }
        }
        else if (PausesWhenOutOfDescriptors && result is -EMFile or -ENFile or -ENoMem or -ENoBufs)
        {
            // Out of descriptors: no accept until the loop finds one free.
            PauseAccepting();
        }

        if (!_accepting && !_acceptPaused && TakesConnections)
        {
            Accept();
        }
    }

    private void Add(int fd)
    {
        NoDelay(fd);
        var (slot, generation) = Connections.Reserve();
        var connection = Create(fd, slot, generation);
        Connections.Set(slot, connection);
        connection.Start();
        OnAdded(connection);
    }

    private void Accept()
    {
        Ring.Accept(ListenFd, OpAccept);
        _accepting = true;
    }
}

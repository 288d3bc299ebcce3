using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Benchmarks.IoUring;
using Benchmarks.Servers.Http;

namespace Benchmarks.Servers.IoUring;

/// <summary>
/// One io_uring event loop of the raw server (<see cref="AcceptLoop{TConnection}"/>: its own thread,
/// ring and listening socket; SO_REUSEPORT spreads connections over the loops). A turn first sends
/// what the turn's requests wrote, in one submission per connection; an eventfd read wakes the loop
/// for connections whose wait is over and for stop; a timeout is the heartbeat that enforces the
/// time limits. At the connection limit, or out of descriptors, the accept is paused until the
/// heartbeat finds room again.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class IoUringLoop : AcceptLoop<IoUringConnection>, IEventLoop, IResumeTarget<IoUringConnection>
{
    private const byte OpHeartbeat = FirstOwnOp;
    private const long HeartbeatNanoseconds = 250_000_000;

    private readonly Socket _listenSocket;
    private readonly Func<HttpRequestProcessor> _processorFactory;
    private readonly ConcurrentQueue<IoUringConnection> _resumed = new();
    private readonly List<IoUringConnection> _flushes = [];
    private long* _heartbeatTime;
    private volatile bool _stopRequested;
    private bool _stopping;

    public IoUringLoop(Socket listenSocket, Func<HttpRequestProcessor> processorFactory, RawServerLimits limits, bool sqPoll)
        : base(sqPoll)
    {
        _listenSocket = listenSocket;
        _processorFactory = processorFactory;
        Limits = limits;
    }

    public RawServerLimits Limits { get; }

    protected override int ListenFd => (int)_listenSocket.Handle;

    protected override bool TakesConnections => !_stopping;

    protected override bool PausesWhenOutOfDescriptors => true;

    public Task StartAsync(int index) => StartThreadAsync($"io_uring loop {index}");

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

    protected override IoUringConnection Create(int fd, int slot, uint generation) => new(this, fd, slot, generation, _processorFactory());

    protected override void OnAdded(IoUringConnection connection)
    {
        if (Connections.Count >= Limits.MaxConnections)
        {
            // At this loop's share of the connection limit: further clients wait in the backlog.
            PauseAccepting();
        }
    }

    protected override void OnStarted()
    {
        _heartbeatTime = (long*)NativeMemory.AllocZeroed(2 * sizeof(long));
        _heartbeatTime[1] = HeartbeatNanoseconds;
        if (_stopRequested)
        {
            // Asked to stop before the eventfd was there to wake it: it stops on its first turn.
            Wake();
        }

        ArmHeartbeat();
    }

    protected override bool BeforeTurn()
    {
        foreach (var connection in _flushes)
        {
            connection.Flush();
        }

        _flushes.Clear();
        return !(_stopping && Connections.Count == 0);
    }

    protected override void OnWoken()
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
            CancelAccept();
            ForEachConnection(c => c.Finish(drain: false));
        }
    }

    protected override void OnOwnCompletion(byte op, int result, uint flags)
    {
        if (op == OpHeartbeat)
        {
            Beat();
        }
    }

    protected override void OnCleanup()
    {
        NativeMemory.Free(_heartbeatTime);
        _heartbeatTime = null;
    }

    private void ArmHeartbeat() => Ring.Timeout(_heartbeatTime, OpHeartbeat);

    private void Beat()
    {
        var now = Environment.TickCount64;
        var stopping = _stopping;
        ForEachConnection(c => c.Heartbeat(now, stopping));
        if (!_stopping && Connections.Count < Limits.MaxConnections)
        {
            ResumeAccepting();
        }

        ArmHeartbeat();
    }

    private void ForEachConnection(Action<IoUringConnection> action)
    {
        for (var i = 0; i < Connections.Used; i++)
        {
            if (Connections.At(i) is { } connection)
            {
                action(connection);
            }
        }
    }
}

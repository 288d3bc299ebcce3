using System.Buffers;
using System.Collections.Concurrent;
using System.Net;
using System.Runtime.Versioning;
using Benchmarks.IoUring;
using Microsoft.AspNetCore.Connections;

namespace Benchmarks.Servers.Kestrel.IoUring;

/// <summary>
/// One ring of the io_uring transport (<see cref="AcceptLoop{TConnection}"/>: a thread, a ring and a
/// multishot accept on the endpoint's socket of its own), doing the sends Kestrel's output asks for.
/// Other threads hand it work through a queue and one eventfd write for everything queued until
/// the ring reads it; a turn first does what is queued and carries out a stop asked for.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class IoUringTransportLoop : AcceptLoop<IoUringTransportConnection>
{
    private readonly int _index;
    private readonly int _listenFd;
    private readonly EndPoint _localEndPoint;
    private readonly Action<ConnectionContext> _accepted;
    private readonly MemoryPool<byte> _pool;
    private readonly bool _inlineScheduling;
    private readonly ConcurrentQueue<(IoUringTransportConnection Connection, Work Work)> _work = new();
    private volatile bool _stopAccepting;
    private volatile bool _stopRequested;
    private bool _stopping;
    private long _id;
    private int _wakePending;

    public IoUringTransportLoop(int index, int listenFd, EndPoint localEndPoint, MemoryPool<byte> pool, bool inlineScheduling,
        Action<ConnectionContext> accepted)
        : base(sqPoll: false)
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

    protected override int ListenFd => _listenFd;

    protected override bool TakesConnections => !_stopAccepting;

    public Task StartAsync() => StartThreadAsync($"io_uring transport {_index}");

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
        if (OnLoopThread)
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

    public void CancelReceive(IoUringTransportConnection connection) => Cancel(connection, OpReceive);

    protected override IoUringTransportConnection Create(int fd, int slot, uint generation) =>
        new(this, fd, slot, generation, $"iouring-{_index}-{++_id}", _localEndPoint, _pool, _inlineScheduling);

    protected override void OnAdded(IoUringTransportConnection connection) => _accepted(connection.Context);

    protected override bool BeforeTurn()
    {
        DoQueuedWork();
        Stop();
        return !(_stopping && Connections.Count == 0);
    }

    protected override void OnWoken()
    {
        Volatile.Write(ref _wakePending, 0);
        DoQueuedWork();
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
        if (Connections.At(connection.Slot) != connection)
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
        if (_stopAccepting)
        {
            CancelAccept();
        }

        if (_stopRequested && !_stopping)
        {
            _stopping = true;
            for (var i = 0; i < Connections.Used; i++)
            {
                Connections.At(i)?.Abort();
            }
        }
    }
}

using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Benchmarks.Load.Core;
using Benchmarks.Load.Engines.Native;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// One thread of the epoll engine, as one of wrk's: it owns its connections and one epoll
/// instance, and drives each through connect, write and read with non-blocking system calls
/// (level-triggered). When a batch's last response is parsed, the next batch is written at once
/// from the same thread: no continuation, no thread hop, no allocation. Timeouts and connect
/// retries are checked by the thread itself between waits. In the open model the thread takes
/// due requests from the shared <see cref="OpenModel.ArrivalSchedule"/> for its idle connections,
/// sleeping on a timerfd set to the next due time while any of them is idle (so a request leaves
/// within the kernel's timer slack of its time, tens of microseconds, not a millisecond later),
/// and a connection that finishes a batch takes the next due one at once.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class EpollWorker : NativeWorker<EpollConnection>
{
    private const int MaxEvents = 256;
    private const int WaitMilliseconds = 20;

    private static readonly long s_checkTicks = Stopwatch.Frequency / 20;

    private readonly LoadRunState _state;
    private readonly EpollConnection[] _connections;
    private readonly EpollSockets _sockets;
    private readonly OpenModel.ArrivalSchedule? _schedule;
    private readonly EpollHttp1 _http1;
    private readonly EpollHttp2 _http2;

    /// <summary>TLS on this worker's connections; null in cleartext.</summary>
    private readonly EpollTls? _tls;

    /// <summary>Open model: connected connections with nothing owed, waiting for the next due request.</summary>
    private readonly Stack<EpollConnection> _idle;

    /// <summary>The connections <see cref="ResumeDeferred"/> reads this turn (those it defers again go back on the sockets' list).</summary>
    private readonly List<EpollConnection> _resuming = [];

    /// <summary>Open model: wakes the thread when the next request falls due; null without one.</summary>
    private ScheduleTimer? _timer;

    /// <summary>Stopwatch ticks the thread has spent in epoll_wait (written by the thread, read by the generator).</summary>
    private long _waitingTicks;

    /// <summary>epoll_wait's events, allocated by the thread when it starts.</summary>
    private byte* _events;

    public EpollWorker(int number, LoadRunState state, EpollConnection[] connections, SocketAddressBytes address, long timeoutTicks, OpenSslClient? tls)
        : base(number, connections)
    {
        _tls = tls is null ? null : new EpollTls(tls);
        _state = state;
        _connections = connections;
        _schedule = state.Schedule;
        _idle = new Stack<EpollConnection>(connections.Length);
        Uncorrected = _schedule is null ? null : new LatencyHistogram();
        _sockets = new EpollSockets(state, address, timeoutTicks);
        _http1 = new EpollHttp1(state, _sockets, Histogram, Uncorrected, Next);
        _http2 = new EpollHttp2(state, _sockets, Histogram, Uncorrected, _schedule is null ? null : _idle);
    }

    /// <summary>Open model: latencies from the send; null in the closed loop.</summary>
    public LatencyHistogram? Uncorrected { get; }

    /// <summary>How long the thread has waited in epoll_wait so far: the rest of its time it worked (or was runnable but not running).</summary>
    public long WaitingTicks => Volatile.Read(ref _waitingTicks);

    protected override void Work()
    {
        _events = (byte*)NativeMemory.Alloc((nuint)(MaxEvents * EpollNative.EventSize));
        var events = _events;
        _sockets.Epoll = EpollNative.CreateEpoll();
        OpenSslClient.ReceiveSessionsOn(_tls);
        if (_schedule is not null)
        {
            _timer = ScheduleTimer.Open(_sockets.Epoll);
        }

        // Every connection starts closed with its connect due: the timer check connects them, a burst at a time.
        var now = Stopwatch.GetTimestamp();
        _sockets.CheckTimers(_connections, now);
        var nextCheck = now + s_checkTicks;
        while (!_state.Aborted)
        {
            if (_state.Stopping && EpollSockets.NothingOwed(_connections))
            {
                break;
            }

            var waitFrom = Stopwatch.GetTimestamp();
            var count = EpollNative.Wait(_sockets.Epoll, events, MaxEvents,
                _sockets.Deferred.Count > 0 ? 0 : WaitTimeout(connecting: _sockets.RetryDue && _sockets.ConnectRoom > 0));
            if (count < 0)
            {
                var errno = Marshal.GetLastPInvokeError();
                if (errno == EpollNative.EINTR)
                {
                    continue;
                }

                throw new IOException($"epoll_wait: {EpollNative.Describe(errno)}");
            }

            now = Stopwatch.GetTimestamp();
            Volatile.Write(ref _waitingTicks, _waitingTicks + (now - waitFrom));
            for (var i = 0; i < count; i++)
            {
                var data = EpollNative.DataAt(events, i);
                if (data == ScheduleTimer.EpollData)
                {
                    _timer!.Fired();
                    continue;
                }

                OnEvents(_connections[(int)data], EpollNative.EventsAt(events, i), now);
            }

            if (_schedule is not null)
            {
                Dispatch(Stopwatch.GetTimestamp());
                if (_idle.Count > 0 && !_state.Stopping)
                {
                    _timer?.Arm(_schedule.NextDue);
                }
            }

            if (count == 0 || now >= nextCheck || _sockets.RetryDue)
            {
                now = Stopwatch.GetTimestamp();
                _sockets.CheckTimers(_connections, now);
                nextCheck = now + s_checkTicks;
            }

            ResumeDeferred();
        }
    }

    protected override void Release()
    {
        EpollSockets.CloseAll(_connections);
        OpenSslClient.ReceiveSessionsOn(null);
        _tls?.Dispose();
        _timer?.Dispose();
        _sockets.CloseEpoll();
        NativeMemory.Free(_events);
        _events = null;
    }

    /// <summary>
    /// Milliseconds epoll_wait may sleep: not at all while connects wait to start and there is room
    /// for them (<see cref="EpollSockets.ConnectBurst"/> in flight at most).
    /// </summary>
    /// <summary>
    /// Reads again the connections that used up their turn's reads, once this turn's events and timers are done (a
    /// connection the timers failed is no longer reading and is skipped); those that use up this turn too wait for the next.
    /// </summary>
    private void ResumeDeferred()
    {
        if (_sockets.Deferred.Count == 0)
        {
            return;
        }

        _resuming.AddRange(_sockets.Deferred);
        _sockets.Deferred.Clear();
        var now = Stopwatch.GetTimestamp();
        foreach (var connection in _resuming)
        {
            if (connection.Phase is EpollPhase.Reading or EpollPhase.Writing or EpollPhase.Parked)
            {
                OnEvents(connection, EpollNative.EPOLLIN, now);
            }
        }

        _resuming.Clear();
    }

    private int WaitTimeout(bool connecting) =>
        connecting ? 0 : _schedule is not null && _timer is null && _idle.Count > 0 ? 1 : WaitMilliseconds;

    private void OnEvents(EpollConnection connection, uint events, long now)
    {
        switch (connection.Phase)
        {
            case EpollPhase.Connecting:
                var error = EpollNative.PendingError(connection.Fd);
                if (error != 0)
                {
                    _sockets.ConnectFailed(connection, $"connect to {_state.EndPoint}: {EpollNative.Describe(error)}", now);
                    return;
                }

                connection.Parser.Reset();
                _sockets.Connected(connection);
                if (_tls is not null)
                {
                    BeginTls(connection, now);
                    return;
                }

                Next(connection, now);
                return;
            case EpollPhase.Handshaking:
                Handshake(connection, now);
                return;
            case EpollPhase.Writing or EpollPhase.Reading when connection.Http2 is not null:
                _http2.OnEvents(connection, events, now);
                return;
            case EpollPhase.Writing when (events & (EpollNative.EPOLLOUT | EpollNative.EPOLLERR | EpollNative.EPOLLHUP)) != 0:
                _http1.ContinueWrite(connection);
                return;
            case EpollPhase.Reading:
            case EpollPhase.Parked:
                _http1.Read(connection, now);
                return;
        }
    }

    /// <summary>A connected socket starts its TLS handshake, timed from now and under the request timeout.</summary>
    private void BeginTls(EpollConnection connection, long now)
    {
        connection.ConnectedAt = now;
        connection.WaitingSince = now;
        connection.Phase = EpollPhase.Handshaking;
        if (!_tls!.Begin(connection))
        {
            HandshakeFailed(connection, now);
            return;
        }

        Handshake(connection, now);
    }

    /// <summary>The handshake's next step; once done (and the protocol agreed), counted and timed, and the connection starts its requests.</summary>
    private void Handshake(EpollConnection connection, long now)
    {
        var step = EpollTls.Handshake(connection);
        if (step > 0)
        {
            _sockets.Watch(connection, (uint)step);
            return;
        }

        if (step == 0 && _tls!.Refusal(connection) is { } refusal)
        {
            connection.TlsError = refusal;
            step = EpollTls.Failed;
        }

        if (step == EpollTls.Failed)
        {
            HandshakeFailed(connection, now);
            return;
        }

        connection.WaitingSince = 0;
        _state.Handshaken(connection.ConnectedAt, ref connection.Counters);
        _state.Negotiated ??= EpollTls.Negotiated(connection);
        _sockets.Watch(connection, EpollNative.EPOLLIN);
        Next(connection, now);
        if (connection.Phase is EpollPhase.Reading or EpollPhase.Parked && EpollTls.Buffered(connection))
        {
            // What the server sent with its last handshake flight is in OpenSSL already: epoll will not say so.
            OnEvents(connection, EpollNative.EPOLLIN, now);
        }
    }

    private void HandshakeFailed(EpollConnection connection, long now)
    {
        if (_state.Measuring && !_state.Aborted)
        {
            connection.Counters.HandshakeErrors++;
        }

        _sockets.ConnectFailed(connection, $"TLS handshake with {_state.EndPoint}: {connection.TlsError}", now);
    }

    /// <summary>A connection with nothing owed: the next batch at once (closed loop), the next due request, or idle until one falls due (open model).</summary>
    private void Next(EpollConnection connection, long now)
    {
        if (connection.Http2 is not null)
        {
            // HTTP/2 comes here once, connected: its session keeps its streams full from then on.
            _http2.Start(connection, now);
            return;
        }

        if (_state.Stopping)
        {
            connection.Phase = EpollPhase.Parked;
            return;
        }

        if (_schedule is null)
        {
            _http1.SendBatch(connection, now, 0);
        }
        else if (_schedule.TryTake(out var due))
        {
            // Timed from now, not from when this wake began: the request is sent after it was taken.
            // Late with another connection idle: the thread, not the pool, held it back.
            _http1.SendBatch(connection, Stopwatch.GetTimestamp(), due, _idle.Count > 0);
        }
        else
        {
            connection.Phase = EpollPhase.Parked;
            if (!connection.Idle)
            {
                connection.Idle = true;
                _idle.Push(connection);
            }
        }
    }

    /// <summary>Open model: due requests to idle connections, as many as both allow.</summary>
    private void Dispatch(long now)
    {
        while (_idle.Count > 0 && !_state.Stopping)
        {
            var connection = _idle.Peek();
            if (connection.Http2 is not null)
            {
                // HTTP/2: a due request on a free stream; the connection stays while it has more.
                if (connection.Phase is not (EpollPhase.Reading or EpollPhase.Writing) || !connection.Http2.CanOpen)
                {
                    connection.Idle = false;
                    _idle.Pop();
                    continue;
                }

                if (!_schedule!.TryTake(out var next))
                {
                    return;
                }

                _ = _http2.OpenDue(connection, next, Stopwatch.GetTimestamp());
                continue;
            }

            if (connection.Phase != EpollPhase.Parked)
            {
                // Failed and reconnecting since it went idle: it comes back through its connect.
                connection.Idle = false;
                _idle.Pop();
                continue;
            }

            if (!_schedule!.TryTake(out var due))
            {
                return;
            }

            connection.Idle = false;
            _idle.Pop();
            _http1.SendBatch(connection, Stopwatch.GetTimestamp(), due, freeWaiting: true);
        }
    }
}

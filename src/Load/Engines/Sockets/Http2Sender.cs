using System.Diagnostics;
using System.Net.Sockets;
using Benchmarks.Load.Http;
using Benchmarks.Load.OpenModel;
using Benchmarks.Load.Protocols.Http2;

namespace Benchmarks.Load.Engines.Sockets;

/// <summary>
/// The open model on one HTTP/2 connection: while the connection's loop reads, this takes each due
/// request from the schedule when a stream is free, and sends it at once, timed from its due time.
/// The session and the socket's writes are shared with the reading loop under one gate; a stream
/// freed by an answer wakes a sender waiting for one. When the schedule ends, a PING wakes the
/// reading loop so that it sees the end.
/// </summary>
internal sealed class Http2Sender(LoadRunState state, Http2Session session, Http2LoadConnection connection)
{
    private readonly ScheduleWaiter _scheduleWaiter = new();
    private readonly ScheduleWaiter _slotWaiter = new();
    private Task _loop = Task.CompletedTask;
    private bool _slotParked;
    private bool _ended;
    private volatile bool _done;

    /// <summary>Guards the session and the socket's writes between this sender and the reading loop.</summary>
    public SemaphoreSlim Gate { get; } = new(1, 1);

    /// <summary>Whether the sender has ended (the schedule is over, or the connection is).</summary>
    public bool Done => _done;

    /// <summary>Starts sending on a connection whose preface has gone out.</summary>
    public void Start()
    {
        (_ended, _done, _slotParked) = (false, false, false);
        _loop = SendAsync();
    }

    /// <summary>
    /// Called by the reading loop under the gate after a read: whether a parked sender is to be
    /// woken (after the gate is released): a stream was freed, or the connection is going away.
    /// </summary>
    public bool TakeWake(bool freed)
    {
        if (_slotParked && (freed || session.GoingAway))
        {
            _slotParked = false;
            return true;
        }

        return false;
    }

    /// <summary>Wakes the parked sender: to look for a free stream again, or to end if the connection is going away.</summary>
    public void Wake() => _slotWaiter.Wake(session.GoingAway ? -1 : 0);

    /// <summary>The connection has ended: the sender ends too (once the schedule hands it its next request, or at once if it waits for a stream).</summary>
    public async Task StopAsync()
    {
        await Gate.WaitAsync();
        var wake = _slotParked;
        (_ended, _slotParked) = (true, false);
        Gate.Release();
        if (wake)
        {
            _slotWaiter.Wake(-1);
        }

        await _loop;
    }

    private async Task SendAsync()
    {
        try
        {
            while (await FreeStreamAsync())
            {
                var due = await state.Schedule!.NextAsync(_scheduleWaiter, out var freeWaiting);
                await Gate.WaitAsync();
                try
                {
                    if (due < 0)
                    {
                        // The schedule is over: a PING makes the server answer, so the reading loop wakes and sees the end.
                        _done = true;
                        session.Ping();
                        await connection.FlushAsync();
                        return;
                    }

                    ref var counters = ref connection.Counters;
                    if (_ended || !session.CanOpen)
                    {
                        // The connection ended while this request waited for its due time: it is lost with it.
                        counters.Lost += state.Measuring ? 1 : 0;
                        return;
                    }

                    var sentAt = Stopwatch.GetTimestamp();
                    var measured = state.Measuring;
                    if (measured && sentAt - due > state.LateTicks)
                    {
                        counters.Late++;
                        counters.LateByLoad += freeWaiting ? 1 : 0;
                    }

                    if (session.Outstanding == 0)
                    {
                        connection.Waiting(sentAt);
                    }

                    session.Open(due, sentAt, measured, ref counters);
                    await connection.FlushAsync();
                }
                finally
                {
                    Gate.Release();
                }
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException)
        {
            // The socket failed under a write: the reading loop sees it too and counts it.
        }
        finally
        {
            _done = true;
        }
    }

    /// <summary>Waits for a stream to be free; false when the connection ended or will take no more.</summary>
    private async ValueTask<bool> FreeStreamAsync()
    {
        while (true)
        {
            await Gate.WaitAsync();
            var (ended, free, going) = (_ended, session.CanOpen, session.GoingAway);
            var parked = default(ValueTask<long>);
            if (!ended && !free && !going)
            {
                parked = _slotWaiter.Park();
                _slotParked = true;
            }

            Gate.Release();
            if (ended || going)
            {
                return false;
            }

            if (free)
            {
                return true;
            }

            if (await parked < 0)
            {
                return false;
            }
        }
    }
}

using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http2;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// HTTP/2 (h2c, or h2 over TLS) on an epoll worker's connections: the same <see cref="Http2Session"/> as on the
/// sockets engine, driven by non-blocking reads and writes from the worker's thread. Every read is
/// parsed as it comes and what is to be sent written at once; a write the socket cannot take in
/// full waits for EPOLLOUT while reading goes on. In the closed loop each answered stream is
/// replaced by a new request at once; in the open model a connection with a free stream waits in
/// the worker's idle stack, and the worker opens each due request on one of them
/// (<see cref="OpenDue"/>), timed from its due time. The connection's
/// <see cref="EpollConnection.Outstanding"/> follows the session's, so the worker's drain,
/// timeouts and failures count its streams.
/// </summary>
/// <param name="idle">Open model: the worker's connections that can take a request now; null in the closed loop.</param>
[SupportedOSPlatform("linux")]
internal sealed class EpollHttp2(LoadRunState state, EpollSockets sockets, LatencyHistogram histogram, LatencyHistogram? uncorrected,
    Stack<EpollConnection>? idle)
{
    /// <summary>
    /// Open model: the due request <paramref name="due"/> on <paramref name="connection"/>, which
    /// has a free stream, sent now; false when the connection cannot take it (not up, no free
    /// stream, going away), and it leaves the idle stack.
    /// </summary>
    public bool OpenDue(EpollConnection connection, long due, long now)
    {
        var session = connection.Http2!;
        if (connection.Phase is not (EpollPhase.Reading or EpollPhase.Writing) || !session.CanOpen)
        {
            return false;
        }

        var measured = state.Measuring;
        if (measured && now - due > state.LateTicks)
        {
            // Late: the thread held it back if this connection's stream was already free while it was
            // still on time; a stream freed only after that (the server answering late) is the pool's.
            connection.Counters.Late++;
            connection.Counters.LateByLoad += connection.FreeSince - due <= state.LateTicks ? 1 : 0;
        }

        session.Open(due, now, measured, ref connection.Counters);
        Opened(connection);
        if (connection.Phase == EpollPhase.Reading)
        {
            // A connection already waiting on EPOLLOUT sends it with the rest when the socket takes it.
            Write(connection);
        }

        return true;
    }

    /// <summary>A connection is up: the preface, SETTINGS and its first requests go out.</summary>
    public void Start(EpollConnection connection, long now)
    {
        var session = connection.Http2!;
        session.Start();
        OpenFree(connection, now);
        Write(connection);
    }

    /// <summary>Events on a connection that is up: writes resume first, then what came in is read.</summary>
    public void OnEvents(EpollConnection connection, uint events, long now)
    {
        if (connection.Phase == EpollPhase.Writing && (events & (EpollNative.EPOLLOUT | EpollNative.EPOLLERR | EpollNative.EPOLLHUP)) != 0)
        {
            Writable(connection, now);
        }

        // Over TLS, records OpenSSL read while reading paused wait in it, not in the socket: no EPOLLIN says so.
        if (connection.Phase is EpollPhase.Reading or EpollPhase.Writing
            && ((events & (EpollNative.EPOLLIN | EpollNative.EPOLLERR | EpollNative.EPOLLHUP)) != 0 || EpollTls.Buffered(connection)))
        {
            Readable(connection, now);
        }
    }

    /// <summary>The socket takes writes again: the rest of what was pending, then the frames that waited on it.</summary>
    private void Writable(EpollConnection connection, long now)
    {
        if (Write(connection))
        {
            Parse(connection, 0, now);
        }
    }

    /// <summary>Reads what the socket holds and answers it.</summary>
    private void Readable(EpollConnection connection, long now)
    {
        var session = connection.Http2!;
        for (var reads = 1; connection.Phase is EpollPhase.Reading or EpollPhase.Writing; reads++)
        {
            var space = session.ReceiveSpace.Span;
            if (space.IsEmpty)
            {
                // Frames wait on a write the socket has not taken (a flood of SETTINGS or PINGs to
                // answer): read nothing more until it has (Writable parses them and watches EPOLLIN again).
                sockets.Watch(connection, EpollNative.EPOLLOUT);
                return;
            }

            var received = EpollSockets.Read(connection, space);
            if (received == -EpollNative.EAGAIN)
            {
                return;
            }

            if (received < 0)
            {
                Fail(connection, "read: " + EpollSockets.Describe(connection, received), ref connection.Counters.ReadErrors);
                return;
            }

            if (received == 0)
            {
                if (session.Outstanding > 0)
                {
                    Fail(connection, "read: the server closed the connection with requests outstanding", ref connection.Counters.ReadErrors);
                }
                else
                {
                    sockets.Reopen(connection);
                }

                return;
            }

            if (state.Measuring)
            {
                connection.Counters.BytesReceived += received;
            }

            if (!Parse(connection, received, now) || !EpollSockets.ReadMore(connection, received, space.Length))
            {
                // Level-triggered: what is left is read on the next wake.
                return;
            }

            if (reads == EpollSockets.ReadsPerTurn)
            {
                sockets.Deferred.Add(connection);
                return;
            }
        }
    }

    /// <summary>Parses what was read and sends what it calls for; false when the connection ended or waits to write.</summary>
    private bool Parse(EpollConnection connection, int received, long now)
    {
        var session = connection.Http2!;
        var answers = session.Answers;
        (session.Measuring, session.Stopping) = (state.Measuring, state.Stopping);
        var outcome = session.Process(received, now, ref connection.Counters, histogram, uncorrected);
        while (outcome == Http2Outcome.Flush)
        {
            if (!Write(connection))
            {
                // The rest is parsed once the socket takes the answers (Writable).
                connection.Outstanding = session.Outstanding;
                return false;
            }

            outcome = session.Process(0, now, ref connection.Counters, histogram, uncorrected);
        }

        if (outcome == Http2Outcome.Failed)
        {
            Fail(connection, "read: " + session.Error, ref connection.Counters.ReadErrors);
            return false;
        }

        if (session.Error is { } cause && state.Measuring)
        {
            connection.FirstError ??= cause;
        }

        if (session.Answers > answers)
        {
            connection.WaitingSince = 0;
        }

        if (GoneAway(connection, now))
        {
            return false;
        }

        // The frames the GOAWAY came with may call for answers (a SETTINGS ACK): once they are written, it is judged again.
        OpenFree(connection, now);
        return Write(connection) && !GoneAway(connection, now);
    }

    /// <summary>
    /// A connection the server is done with (GOAWAY, its last stream answered, nothing left to write) is replaced: at
    /// once after answers, after a pause and counted as a failed connect when the server answered nothing on it.
    /// </summary>
    private bool GoneAway(EpollConnection connection, long now)
    {
        var session = connection.Http2!;
        if (session.Outstanding > 0 || session.CanOpen || !session.Pending.IsEmpty)
        {
            return false;
        }

        connection.Outstanding = 0;
        if (session.Refused)
        {
            sockets.ConnectFailed(connection, $"{session.GoAwayCause} before any answer: the server refused the connection", now);
        }
        else
        {
            sockets.Reopen(connection);
        }

        return true;
    }

    /// <summary>
    /// Closed loop: a new request on every free stream, timed from now (the write follows at once).
    /// Open model: a connection with a free stream goes on the idle stack for the next due request.
    /// None once the run stops.
    /// </summary>
    private void OpenFree(EpollConnection connection, long now)
    {
        var session = connection.Http2!;
        if (!state.Stopping)
        {
            if (idle is null)
            {
                var measured = state.Measuring;
                while (session.CanOpen)
                {
                    session.Open(now, now, measured, ref connection.Counters);
                }
            }
            else if (session.CanOpen && !connection.Idle)
            {
                (connection.Idle, connection.FreeSince) = (true, now);
                idle.Push(connection);
            }
        }

        Opened(connection);
    }

    /// <summary>The connection's count follows the session's; the timeout counts from the first request in flight.</summary>
    private static void Opened(EpollConnection connection)
    {
        connection.Outstanding = connection.Http2!.Outstanding;
        if (connection.Outstanding > 0 && connection.WaitingSince == 0)
        {
            connection.WaitingSince = Stopwatch.GetTimestamp();
        }
    }

    /// <summary>Writes what is pending; false when the socket took only part of it (EPOLLOUT is watched) or the write failed.</summary>
    private bool Write(EpollConnection connection)
    {
        var session = connection.Http2!;
        while (!session.Pending.IsEmpty)
        {
            var written = EpollSockets.Write(connection, session.Pending.Span);
            if (written == -EpollNative.EAGAIN)
            {
                connection.Phase = EpollPhase.Writing;
                sockets.Watch(connection, EpollNative.EPOLLIN | EpollNative.EPOLLOUT);
                return false;
            }

            if (written < 0)
            {
                Fail(connection, "write: " + EpollSockets.Describe(connection, written), ref connection.Counters.WriteErrors);
                return false;
            }

            session.Sent(written);
        }

        connection.Phase = EpollPhase.Reading;
        sockets.Watch(connection, EpollNative.EPOLLIN);
        return true;
    }

    private void Fail(EpollConnection connection, string cause, ref long counter) => sockets.Fail(connection, cause, ref counter);
}

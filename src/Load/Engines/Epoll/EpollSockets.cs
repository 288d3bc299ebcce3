using System.Diagnostics;
using System.Runtime.Versioning;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Load.Engines.Epoll;

/// <summary>
/// The socket lifecycle of an epoll worker's connections: a non-blocking connect registered with
/// the worker's epoll instance, interest changes, failures counted with their first cause, the
/// connection made again after a failure or a close, and the timeouts and connect retries the
/// worker checks between waits; reads and writes go through TLS on a connection that has it. Used
/// by its worker's thread only.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed class EpollSockets(LoadRunState state, SocketAddressBytes address, long timeoutTicks)
{
    /// <summary>
    /// Connects in flight at once, at most: at the start, and after a mass failure (every
    /// connection timed out), the thread connects in bursts and serves the open connections between
    /// them, rather than spend seconds in connect calls (each a port search in the kernel, slow when
    /// a previous run left its ports in TIME_WAIT) while those wait unserved and time out in turn.
    /// </summary>
    public const int ConnectBurst = 256;

    /// <summary>
    /// Reads one connection may make in one turn of the worker's loop: a server that keeps the socket full (an endless
    /// body) would otherwise hold the thread in its read loop, and no timer, timeout or end of the run would be checked.
    /// </summary>
    public const int ReadsPerTurn = 16;

    private static readonly long s_retryTicks = Stopwatch.Frequency / 100;

    private readonly LoadRunState _state = state;
    private readonly byte[] _address = address.Bytes;
    private readonly int _family = address.Family;
    private readonly long _timeoutTicks = timeoutTicks;

    /// <summary>The worker's epoll instance, set once its thread has made it.</summary>
    public int Epoll { get; set; } = -1;

    /// <summary>Connects started and not yet ended (connected, failed or timed out).</summary>
    public int Connecting { get; private set; }

    /// <summary>Connects that may start now: a burst in flight at most.</summary>
    public int ConnectRoom => Math.Max(0, ConnectBurst - Connecting);

    /// <summary>
    /// Connections whose reading stopped at <see cref="ReadsPerTurn"/> with more to read: the worker reads them again
    /// after its turn's events and timers, without sleeping (over TLS what is left may sit in OpenSSL, where no EPOLLIN says so).
    /// </summary>
    public List<EpollConnection> Deferred { get; } = [];

    /// <summary>Connections failed and waiting to connect again: the worker checks its timers on its next turn.</summary>
    public bool RetryDue { get; private set; }

    /// <summary>Closes the epoll instance, if there is one.</summary>
    public void CloseEpoll()
    {
        if (Epoll >= 0)
        {
            EpollNative.Close(Epoll);
            Epoll = -1;
        }
    }

    /// <summary>Starts a non-blocking connect, timed from its own start (not from when a burst of them began).</summary>
    public void Connect(EpollConnection connection)
    {
        if (_state.Stopping)
        {
            return;
        }

        var now = Stopwatch.GetTimestamp();
        int fd;
        try
        {
            fd = EpollNative.CreateSocket(_family);
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            ConnectFailed(connection, $"connect to {_state.EndPoint}: {ex.Message}", now);
            return;
        }

        connection.Fd = fd;
        connection.Phase = EpollPhase.Connecting;
        Connecting++;
        connection.WaitingSince = now;
        var errno = EpollNative.StartConnect(fd, _address);
        if (errno != 0)
        {
            ConnectFailed(connection, $"connect to {_state.EndPoint}: {EpollNative.Describe(errno)}", now);
            return;
        }

        connection.Interest = EpollNative.EPOLLOUT;
        errno = EpollNative.Control(Epoll, EpollNative.EPOLL_CTL_ADD, fd, connection.Interest, (ulong)connection.Index);
        if (errno != 0)
        {
            ConnectFailed(connection, $"epoll_ctl: {EpollNative.Describe(errno)}", now);
        }
    }

    /// <summary>The connect has completed: the connection waits for nothing until its first request.</summary>
    public void Connected(EpollConnection connection)
    {
        Connecting--;
        connection.WaitingSince = 0;
        Watch(connection, EpollNative.EPOLLIN);
    }

    /// <summary>Connects again the connections whose retry is due (a burst at most), and fails those that waited on the server past the timeout.</summary>
    public void CheckTimers(EpollConnection[] connections, long now)
    {
        RetryDue = false;
        var budget = ConnectRoom;
        foreach (var connection in connections)
        {
            if (connection.Phase == EpollPhase.Closed)
            {
                if (now >= connection.RetryAt)
                {
                    if (budget-- > 0)
                    {
                        Connect(connection);
                    }
                    else
                    {
                        RetryDue = true;
                    }
                }
            }
            else if (connection.WaitingSince != 0 && now - connection.WaitingSince > _timeoutTicks)
            {
                var cause = connection.Phase switch
                {
                    EpollPhase.Connecting => "connect timed out",
                    EpollPhase.Handshaking => "TLS handshake timed out",
                    _ => "request timed out",
                };
                Fail(connection, cause, ref connection.Counters.Timeouts);
            }
        }
    }

    /// <summary>
    /// Counts the failure (with its cause, the first one) and the requests lost with it; the
    /// connection connects again on the worker's next check.
    /// </summary>
    public void Fail(EpollConnection connection, string? cause, ref long counter)
    {
        // HTTP/1.1: the batch's own window; HTTP/2: the streams say which of them were measured.
        var inWindow = connection.Http2 is null
            ? connection.Measured || (connection.Phase is EpollPhase.Connecting or EpollPhase.Handshaking && _state.Measuring)
            : _state.Measuring;
        connection.CountFailure(inWindow, _state, cause, ref counter, connection.Http2 is null ? connection.Outstanding : 0);
        connection.Http2?.Abandon(ref connection.Counters);
        EndConnect(connection);
        CloseSocket(connection);
        connection.RetryAt = 0;
        RetryDue = true;
    }

    /// <summary>Counts a failed connect (in the window) and sets the retry a little later, so a refusing server is not spun against.</summary>
    public void ConnectFailed(EpollConnection connection, string cause, long now)
    {
        connection.CountConnectFailure(_state, cause);
        EndConnect(connection);
        CloseSocket(connection);

        // Back off a little so a refusing server is not spun against.
        connection.RetryAt = now + s_retryTicks;
    }

    private void EndConnect(EpollConnection connection)
    {
        if (connection.Phase == EpollPhase.Connecting)
        {
            Connecting--;
        }
    }

    /// <summary>Closes the socket and connects again at once.</summary>
    public void Reopen(EpollConnection connection)
    {
        EndConnect(connection);
        CloseSocket(connection);
        Connect(connection);
    }

    /// <summary>
    /// Reads from the connection (decrypted over TLS): bytes, 0 at the end of the stream, or a
    /// negative code for <see cref="Describe"/> (minus EAGAIN when there is nothing yet).
    /// </summary>
    public static int Read(EpollConnection connection, Span<byte> buffer) =>
        connection.Ssl == 0 ? EpollNative.Read(connection.Fd, buffer) : EpollTls.Read(connection, buffer);

    /// <summary>
    /// Writes to the connection (encrypted over TLS): bytes taken, or a negative code for
    /// <see cref="Describe"/> (minus EAGAIN when the socket takes none).
    /// </summary>
    public static int Write(EpollConnection connection, ReadOnlySpan<byte> buffer) =>
        connection.Ssl == 0 ? EpollNative.Write(connection.Fd, buffer) : EpollTls.Write(connection, buffer);

    /// <summary>What a negative result of <see cref="Read"/> or <see cref="Write"/> means.</summary>
    public static string Describe(EpollConnection connection, int code) =>
        code == EpollTls.Failed ? connection.TlsError ?? "TLS failed" : EpollNative.Describe(-code);

    /// <summary>
    /// After a read of <paramref name="received"/> bytes into <paramref name="space"/>: whether more
    /// may be there now — the buffer was filled, or (over TLS) OpenSSL holds records it read from
    /// the socket, which epoll does not report. Otherwise the next read waits for the next event.
    /// </summary>
    public static bool ReadMore(EpollConnection connection, int received, int space) =>
        received == space || EpollTls.Buffered(connection);

    /// <summary>Registers the socket for <paramref name="events"/>, with a system call only when they change.</summary>
    public void Watch(EpollConnection connection, uint events)
    {
        if (connection.Interest != events)
        {
            connection.Interest = events;
            _ = EpollNative.Control(Epoll, EpollNative.EPOLL_CTL_MOD, connection.Fd, events, (ulong)connection.Index);
        }
    }

    /// <summary>Whether no connection is owed an answer (the run may end once it stops).</summary>
    public static bool NothingOwed(EpollConnection[] connections)
    {
        foreach (var connection in connections)
        {
            if (connection.Outstanding > 0)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>At the end of the run: what is still outstanding in the window is unfinished, and every socket is closed.</summary>
    public static void CloseAll(EpollConnection[] connections)
    {
        foreach (var connection in connections)
        {
            if (connection.Http2 is { } session)
            {
                session.Abandon(ref connection.Counters, unfinished: true);
                connection.Outstanding = 0;
            }
            else if (connection.Outstanding > 0 && connection.Measured)
            {
                connection.Counters.Unfinished += connection.Outstanding;
                connection.Outstanding = 0;
            }

            CloseSocket(connection);
        }
    }

    /// <summary>Closes the socket, if any; the connection is then closed until connected again.</summary>
    public static void CloseSocket(EpollConnection connection)
    {
        EpollTls.Close(connection);
        if (connection.Fd >= 0)
        {
            EpollNative.Close(connection.Fd);
            connection.Fd = -1;
        }

        connection.Phase = EpollPhase.Closed;
        connection.WaitingSince = 0;
        connection.Interest = 0;
    }
}

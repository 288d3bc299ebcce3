using System.Diagnostics;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Http;

/// <summary>
/// One persistent connection: write a batch, read until every response of it is parsed,
/// repeat. In the closed loop every request is timed from the batch's send; in the open model
/// the connection first takes the next due request from the schedule, and times it from its due
/// time (into the main histogram) and from its send (into the uncorrected one). Every failure is
/// counted by kind, and requests in flight on a failed connection are counted as lost. Over TLS
/// the same loop writes and reads through an <see cref="SslStream"/> whose handshake follows the
/// connect, timed apart from it.
/// </summary>
internal sealed class LoadConnection : IHttpLoadConnection
{
    private const int ReceiveBufferSize = 16 * 1024;
    private static readonly double s_nanosecondsPerTick = 1_000_000_000.0 / Stopwatch.Frequency;

    private readonly LoadRunState _state;
    private readonly LatencyHistogram _histogram;
    private readonly LatencyHistogram? _uncorrected;
    private readonly HttpResponseParser _parser;
    private readonly byte[] _receiveBuffer = new byte[ReceiveBufferSize];
    private readonly OpenModel.ScheduleWaiter _waiter = new();
    private Socket? _socket;
    private SslStream? _tls;
    private long _waitingSince;
    private volatile bool _timedOut;

    private ConnectionCounters _counters;

    public ref ConnectionCounters Counters => ref _counters;

    /// <summary>The first error this connection saw, kept as the cause to report.</summary>
    public string? FirstError { get; private set; }

    /// <param name="uncorrected">Open model: the histogram of latencies from the send; null in the closed loop.</param>
    public LoadConnection(LoadRunState state, LatencyHistogram histogram, HttpResponseParser parser, LatencyHistogram? uncorrected = null)
    {
        _state = state;
        _histogram = histogram;
        _uncorrected = uncorrected;
        _parser = parser;
    }

    /// <summary>Called by the timeout monitor: drops the connection if it has waited too long.</summary>
    public void CheckTimeout(long now, long timeoutTicks)
    {
        var since = Volatile.Read(ref _waitingSince);
        if (since != 0 && now - since > timeoutTicks && !_timedOut)
        {
            _timedOut = true;
            Volatile.Read(ref _socket)?.Dispose();
        }
    }

    /// <summary>Called at the hard stop: closes the socket under a loop still waiting.</summary>
    public void Abort() => Volatile.Read(ref _socket)?.Dispose();

    public async Task RunAsync()
    {
        try
        {
            var schedule = _state.Schedule;
            while (!_state.Stopping)
            {
                // Open model: wait for the next due request first, so that connecting (without
                // keep-alive) and any wait for a free connection count in its latency.
                var freeWaiting = false;
                var due = schedule is null ? 0 : await schedule.NextAsync(_waiter, out freeWaiting);
                if (due < 0 || _state.Stopping)
                {
                    break;
                }

                if (_socket is null && !await ConnectAsync())
                {
                    continue;
                }

                await RunBatchAsync(_socket!, due, freeWaiting);
            }
        }
        finally
        {
            Close();
        }
    }

    /// <param name="due">Open model: the request's due time (Stopwatch ticks); 0 in the closed loop.</param>
    /// <param name="freeWaiting">Open model: a connection was free for the request, so lateness is the load's.</param>
    private async Task RunBatchAsync(Socket socket, long due, bool freeWaiting)
    {
        var measured = _state.Measuring;
        var outstanding = _state.Depth;
        var sentAt = Stopwatch.GetTimestamp();
        Volatile.Write(ref _waitingSince, sentAt);
        if (measured)
        {
            Counters.Sent += outstanding;
            if (due != 0 && sentAt - due > _state.LateTicks)
            {
                Counters.Late++;
                if (freeWaiting)
                {
                    Counters.LateByLoad++;
                }
            }
        }

        var timedFrom = due == 0 ? sentAt : due;

        var writing = true;
        try
        {
            var batch = _state.Batch;
            if (_tls is { } tls)
            {
                await tls.WriteAsync(batch);
            }
            else
            {
                while (!batch.IsEmpty)
                {
                    var sent = await socket.SendAsync(batch, SocketFlags.None);
                    batch = batch[sent..];
                }
            }

            writing = false;
            var firstRead = true;
            while (outstanding > 0)
            {
                var received = _tls is { } reading ? await reading.ReadAsync(_receiveBuffer.AsMemory()) : await socket.ReceiveAsync(_receiveBuffer.AsMemory(), SocketFlags.None);
                if (firstRead && measured && !_state.KeepAlive && received > 0)
                {
                    _state.FirstByteTimes.Record((long)((Stopwatch.GetTimestamp() - sentAt) * s_nanosecondsPerTick));
                }

                firstRead = false;
                if (received == 0)
                {
                    FirstError ??= measured ? "read: the server closed the connection with requests outstanding" : null;
                    Fail(measured, ref outstanding, ref Counters.ReadErrors);
                    return;
                }

                var now = Stopwatch.GetTimestamp();
                if (measured)
                {
                    Counters.BytesReceived += received;
                }

                switch (Process(received, timedFrom, sentAt, now, measured, ref outstanding))
                {
                    case ResponseOutcome.ServerClosing:
                        if (outstanding > 0)
                        {
                            Fail(measured, ref outstanding, ref Counters.ReadErrors);
                        }
                        else
                        {
                            Close();
                        }

                        return;
                    case ResponseOutcome.Invalid:
                        // One problem, one count: a bad response (the requests behind it are lost), not also a read error.
                        if (measured)
                        {
                            FirstError ??= "read: malformed HTTP response";
                            Counters.Bad++;
                        }

                        outstanding--;
                        Abandon(measured, ref outstanding);
                        return;
                    case ResponseOutcome.UnexpectedData:
                        if (measured)
                        {
                            FirstError ??= "read: the server sent data after the last response it owed (an extra or oversized response)";
                        }

                        Fail(measured, ref outstanding, ref Counters.ReadErrors);
                        return;
                }
            }

            if (!_state.KeepAlive)
            {
                // Answered: this client closes, whether or not the server already did.
                Close();
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException)
        {
            if (!_state.Aborted && _state.Measuring)
            {
                FirstError ??= _timedOut ? "request timed out" : (writing ? "write: " : "read: ") + ex.Message;
            }

            if (_timedOut)
            {
                Fail(measured, ref outstanding, ref Counters.Timeouts);
            }
            else if (_state.Aborted)
            {
                if (measured)
                {
                    Counters.Unfinished += outstanding;
                }

                Close();
            }
            else
            {
                Fail(measured, ref outstanding, ref writing ? ref Counters.WriteErrors : ref Counters.ReadErrors);
            }
        }
        finally
        {
            Volatile.Write(ref _waitingSince, 0);
        }
    }

    private ResponseOutcome Process(int received, long timedFrom, long sentAt, long now, bool measured, ref int outstanding) =>
        ResponseTally.Process(_parser, new ReadOnlySpan<byte>(_receiveBuffer, 0, received), ref Counters, _histogram, _uncorrected, new BatchTimes(timedFrom, sentAt, now), measured, ref outstanding);

    private async ValueTask<bool> ConnectAsync()
    {
        var socket = new Socket(_state.EndPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Volatile.Write(ref _socket, socket);
        var started = Stopwatch.GetTimestamp();
        Volatile.Write(ref _waitingSince, started);
        try
        {
            await socket.ConnectAsync(_state.EndPoint);
            _parser.Reset();
            var connected = Stopwatch.GetTimestamp();
            if (!_state.KeepAlive && _state.Measuring)
            {
                Counters.Connects++;
                _state.ConnectTimes.Record((long)((connected - started) * s_nanosecondsPerTick));
            }

            if (_state.Tls is { } options)
            {
                await HandshakeAsync(socket, options, connected);
            }

            return true;
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException or AuthenticationException)
        {
            var timedOut = _timedOut;
            var handshake = _tls is not null;
            Close();
            if (_state.Aborted)
            {
                return false;
            }

            if (_state.Measuring)
            {
                // Counted every time, named once: the count is not on the right of ??=, which runs it only while no error is named.
                var cause = Counters.ConnectFailed(timedOut, handshake, _state.EndPoint, TlsNames.Cause(ex));
                FirstError ??= cause;
            }

            // Back off a little so a refusing server is not spun against.
            await Task.Delay(10);
            return false;
        }
        finally
        {
            Volatile.Write(ref _waitingSince, 0);
        }
    }

    /// <summary>The TLS handshake on a connected socket, timed from the connect's end; the first one's version and cipher are kept.</summary>
    private async ValueTask HandshakeAsync(Socket socket, SslClientAuthenticationOptions options, long connected)
    {
        var tls = new SslStream(new NetworkStream(socket, ownsSocket: false), leaveInnerStreamOpen: false);
        Volatile.Write(ref _tls, tls);
        await tls.AuthenticateAsClientAsync(options, CancellationToken.None);
        _state.Handshaken(tls, connected, ref Counters);
    }

    private void Fail(bool measured, ref int outstanding, ref long errorCounter)
    {
        if (measured)
        {
            errorCounter++;
            Counters.Lost += outstanding;
        }

        outstanding = 0;
        Close();
    }

    /// <summary>Gives the connection up after a bad response: the requests still outstanding on it are lost.</summary>
    private void Abandon(bool measured, ref int outstanding)
    {
        if (measured)
        {
            Counters.Lost += outstanding;
        }

        outstanding = 0;
        Close();
    }

    private void Close()
    {
        Interlocked.Exchange(ref _tls, null)?.Dispose();
        var socket = Interlocked.Exchange(ref _socket, null);
        socket?.Dispose();
        _timedOut = false;
    }
}

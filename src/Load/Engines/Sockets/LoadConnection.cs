using System.Diagnostics;
using System.Net.Security;
using System.Net.Sockets;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Sockets;

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
    private readonly SocketTransport _transport = new();
    private readonly Action<long, long> _connected;

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
        _connected = Connected;
    }

    public void CheckTimeout(long now, long timeoutTicks) => _transport.CheckTimeout(now, timeoutTicks);

    public void Abort() => _transport.Abort();

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

                if (!_transport.IsOpen && !await ConnectAsync())
                {
                    continue;
                }

                await RunBatchAsync(due, freeWaiting);
            }
        }
        finally
        {
            Close();
        }
    }

    /// <param name="due">Open model: the request's due time (Stopwatch ticks); 0 in the closed loop.</param>
    /// <param name="freeWaiting">Open model: a connection was free for the request, so lateness is the load's.</param>
    private async Task RunBatchAsync(long due, bool freeWaiting)
    {
        var measured = _state.Measuring;
        var outstanding = _state.Depth;
        var sentAt = Stopwatch.GetTimestamp();
        _transport.WaitingSince = sentAt;
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
            await _transport.WriteAsync(_state.Batch);
            writing = false;
            var firstRead = true;
            while (outstanding > 0)
            {
                var received = await _transport.ReadAsync(_receiveBuffer.AsMemory());
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
        catch (Exception ex) when (SocketTransport.IsIoFailure(ex))
        {
            FirstError ??= !_state.Aborted && _state.Measuring ? _transport.FailureCause(ex, writing) : null;

            if (_transport.TimedOut)
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
            _transport.WaitingSince = 0;
        }
    }

    private ResponseOutcome Process(int received, long timedFrom, long sentAt, long now, bool measured, ref int outstanding) =>
        ResponseTally.Process(_parser, new ReadOnlySpan<byte>(_receiveBuffer, 0, received), ref Counters, _histogram, _uncorrected,
            new BatchTimes(timedFrom, sentAt, now), measured, ref outstanding);

    private async ValueTask<bool> ConnectAsync()
    {
        // Counted every time, named once: the count is not on the right of ??=, which runs it only while no error is named.
        var (open, cause) = await _transport.OpenAsync(_state, this, connected: _connected);
        FirstError ??= cause;
        return open;
    }

    /// <summary>A connect's end: the parser starts afresh, and without keep-alive the connect is counted and timed.</summary>
    private void Connected(long started, long connected)
    {
        _parser.Reset();
        if (!_state.KeepAlive && _state.Measuring)
        {
            Counters.Connects++;
            _state.ConnectTimes.Record((long)((connected - started) * s_nanosecondsPerTick));
        }
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

    private void Close() => _transport.Close();
}

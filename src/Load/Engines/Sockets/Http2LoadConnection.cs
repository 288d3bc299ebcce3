using System.Diagnostics;
using System.Net.Security;
using System.Net.Sockets;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http2;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Engines.Sockets;

/// <summary>
/// One HTTP/2 connection of the load: h2c by prior knowledge, or h2 over TLS agreed by ALPN. In
/// the closed loop it keeps its streams full: every read is parsed (<see cref="Http2Session"/>),
/// each answered stream is replaced by a new request at once, and what is to be sent goes out in
/// one write per read. In the open model a sender takes each due request from the schedule when a
/// stream is free, while the loop reads. A protocol error of the server ends the connection with
/// its cause; the requests in flight on it are lost.
/// </summary>
internal sealed class Http2LoadConnection : IHttpLoadConnection
{
    /// <summary>Reads in a row that found data waiting before the loop yields its thread to the other connections.</summary>
    private const int ReadsBeforeYield = 4;

    private readonly LoadRunState _state;
    private readonly LatencyHistogram _histogram;
    private readonly LatencyHistogram? _uncorrected;
    private readonly Http2Session _session;
    private readonly Http2Sender? _sender;
    private readonly SocketTransport _transport = new();
    private ConnectionCounters _counters;

    public Http2LoadConnection(LoadRunState state, LatencyHistogram histogram, Http2Session session, LatencyHistogram? uncorrected = null)
    {
        _state = state;
        _histogram = histogram;
        _uncorrected = uncorrected;
        _session = session;
        _sender = state.Schedule is null ? null : new Http2Sender(state, session, this);
    }

    public ref ConnectionCounters Counters => ref _counters;

    public string? FirstError { get; private set; }

    public void CheckTimeout(long now, long timeoutTicks) => _transport.CheckTimeout(now, timeoutTicks);

    public void Abort() => _transport.Abort();

    public async Task RunAsync()
    {
        try
        {
            while (!_state.Stopping)
            {
                if (!_transport.IsOpen && !await ConnectAsync())
                {
                    continue;
                }

                await ServeAsync();
            }
        }
        finally
        {
            Close();
        }
    }

    /// <summary>Writes what the session has pending (in the open model under the sender's gate, which the caller holds).</summary>
    internal async ValueTask FlushAsync()
    {
        var pending = _session.Pending;
        if (pending.IsEmpty)
        {
            return;
        }

        await _transport.WriteAsync(pending);
        _session.Sent();
    }

    /// <summary>Open model: a request went out on a connection that had none in flight; the timeout counts from it.</summary>
    internal void Waiting(long since) => _transport.WaitingSince = since;

    /// <summary>
    /// Runs one connection until it fails, the server sends GOAWAY and its last stream is answered,
    /// or the run stops and every stream is answered.
    /// </summary>
    private async Task ServeAsync()
    {
        var writing = true;
        try
        {
            var start = Stopwatch.GetTimestamp();
            OpenFree(start);
            await FlushAsync();
            _transport.WaitingSince = _session.Outstanding > 0 ? start : 0;
            _sender?.Start();

            writing = false;
            var ready = 0;
            while (true)
            {
                if (_session.Outstanding == 0 && (_state.Stopping || !_session.CanOpen) && (_sender is null || _sender.Done))
                {
                    // Done: the run stops, or the server is going away (a new connection follows: after a pause, and
                    // counted as a failed connect, when it answered nothing on this one).
                    var refused = _session.Refused && !_state.Stopping;
                    if (refused && _state.Measuring && !_state.Aborted)
                    {
                        _counters.ConnectErrors++;
                        FirstError ??= $"{_session.GoAwayCause} before any answer: the server refused the connection";
                    }

                    Close();
                    if (refused)
                    {
                        await Task.Delay(10);
                    }

                    return;
                }

                // A read that finds data waiting completes at once, and with inline completions the
                // loop runs on the socket engine's thread: a connection whose server always has the
                // next answers ready would keep that thread from every other connection. After a few
                // reads in a row that did not wait, the loop lets the others go first.
                var reading = _transport.ReadAsync(_session.ReceiveSpace);
                if (!reading.IsCompleted)
                {
                    ready = 0;
                }
                else if (++ready >= ReadsBeforeYield)
                {
                    ready = 0;
                    await Task.Yield();
                }

                var received = await reading;
                if (received == 0)
                {
                    if (_session.Outstanding > 0)
                    {
                        FirstError ??= _state.Measuring ? "read: the server closed the connection with requests outstanding" : null;
                        Fail(ref _counters.ReadErrors);
                    }
                    else
                    {
                        Close();
                    }

                    return;
                }

                var now = Stopwatch.GetTimestamp();
                if (_state.Measuring)
                {
                    _counters.BytesReceived += received;
                }

                if (!await ProcessAsync(received, now))
                {
                    FirstError ??= _state.Measuring ? "read: " + _session.Error : null;
                    Fail(ref _counters.ReadErrors);
                    return;
                }

                FirstError ??= _session.Error is { } cause && _state.Measuring ? cause : null;
            }
        }
        catch (Exception ex) when (SocketTransport.IsIoFailure(ex))
        {
            FirstError ??= !_state.Aborted && _state.Measuring ? _transport.FailureCause(ex, writing) : null;

            if (_transport.TimedOut)
            {
                Fail(ref _counters.Timeouts);
            }
            else if (_state.Aborted)
            {
                _session.Abandon(ref _counters, unfinished: true);
                Close();
            }
            else
            {
                Fail(ref writing ? ref _counters.WriteErrors : ref _counters.ReadErrors);
            }
        }
        finally
        {
            _transport.WaitingSince = 0;
            if (_sender is not null)
            {
                Close();
                await _sender.StopAsync();
            }
        }
    }

    /// <summary>Parses a read and sends what it calls for; in the closed loop, opens a stream for every one answered. False on a connection error.</summary>
    private async ValueTask<bool> ProcessAsync(int received, long now)
    {
        if (_sender is null)
        {
            return await ProcessUnderGateAsync(received, now);
        }

        await _sender.Gate.WaitAsync();
        bool processed, wake;
        try
        {
            var outstanding = _session.Outstanding;
            processed = await ProcessUnderGateAsync(received, now);
            wake = _sender.TakeWake(_session.Outstanding < outstanding);
        }
        finally
        {
            _sender.Gate.Release();
        }

        if (wake)
        {
            _sender.Wake();
        }

        return processed;
    }

    private async ValueTask<bool> ProcessUnderGateAsync(int received, long now)
    {
        var answers = _session.Answers;
        (_session.Measuring, _session.Stopping) = (_state.Measuring, _state.Stopping);
        var outcome = _session.Process(received, now, ref _counters, _histogram, _uncorrected);
        while (outcome == Http2Outcome.Flush)
        {
            await FlushAsync();
            outcome = _session.Process(0, now, ref _counters, _histogram, _uncorrected);
        }

        if (outcome == Http2Outcome.Failed)
        {
            return false;
        }

        // The timeout counts from the last answer (or from the first request after none was in
        // flight): a server that sends only PINGs or SETTINGS while it owes answers still times out.
        var progressed = _session.Answers > answers;
        OpenFree(now);
        await FlushAsync();
        var since = _transport.WaitingSince;
        _transport.WaitingSince = _session.Outstanding == 0 ? 0 : progressed || since == 0 ? now : since;
        return true;
    }

    /// <summary>Closed loop: a new request for every free stream, timed from now (the write follows at once).</summary>
    private void OpenFree(long now)
    {
        if (_state.Stopping || _sender is not null)
        {
            return;
        }

        var measured = _state.Measuring;
        while (_session.CanOpen)
        {
            _session.Open(now, now, measured, ref _counters);
        }
    }

    private async ValueTask<bool> ConnectAsync()
    {
        var (open, cause) = await _transport.OpenAsync(_state, this, SslApplicationProtocol.Http2);
        FirstError ??= cause;
        if (open)
        {
            _session.Start();
        }

        return open;
    }

    private void Fail(ref long errorCounter)
    {
        if (_state.Measuring)
        {
            errorCounter++;
        }

        _session.Abandon(ref _counters);
        Close();
    }

    private void Close() => _transport.Close();
}

using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Benchmarks.Load.Core;
using Benchmarks.Load.OpenModel;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Tcp;

/// <summary>
/// One TCP load connection (persistent) or client (churn). Its <see cref="ITcpExchange"/> writes
/// the requests and reads the answers: the built-in echo, whose every message has its own bytes,
/// or a scenario's protocol. A request sent in the measured window ends once: answered, failed
/// by cause, or unfinished at the stop. A persistent connection that fails connects again. In the
/// open model a persistent connection sends one request at a time, each at its due time, and its
/// round trip counts from then.
/// </summary>
internal sealed class TcpLoadConnection : IDisposable
{
    private readonly TcpLoadOptions _options;
    private readonly TcpRunState _state;
    private readonly LoadEndPoint _endPoint;
    private readonly LoadTimers _timers;
    private readonly ScheduleWaiter _waiter = new();
    private readonly ITcpExchange _exchange;
    private readonly byte[] _send;
    private readonly byte[] _receive;
    private readonly long[] _sentAt;
    private readonly long[] _timedFrom;
    private readonly bool[] _counted;
    private const int Unasked = -2;

    private Socket? _socket;
    private Task _sending = Task.CompletedTask;
    private long _next;
    private long _expected;
    private int _partial;
    private long _waitingSince;
    private volatile bool _timedOut;

    public TcpLoadConnection(TcpLoadOptions options, TcpRunState state, LoadEndPoint endPoint, LoadTimers timers, ITcpExchange exchange)
    {
        _options = options;
        _state = state;
        _endPoint = endPoint;
        _timers = timers;
        _exchange = exchange;
        _send = new byte[exchange.MaxRequestSize * options.Window];
        _receive = new byte[Math.Max(4096, Math.Min(_send.Length, 64 * 1024))];
        _sentAt = new long[options.Window];
        _timedFrom = new long[options.Window];
        _counted = new bool[options.Window];
    }

    public TcpCounters Counters { get; } = new();

    public string? FirstError { get; private set; }

    private int InFlight => (int)(_next - _expected);

    public async Task RunAsync()
    {
        while (!_state.Stopping && !_state.Abort.IsCancellationRequested)
        {
            if (!await ConnectAsync())
            {
                await PauseAsync();
                continue;
            }

            var failed = false;
            try
            {
                failed = !await ExchangeAsync();
            }
            catch (OperationCanceledException) when (_state.Abort.IsCancellationRequested)
            {
                EndInFlight(null);
                return;
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException)
            {
                EndInFlight(Classify(ex));
                Note(ex.Message);
                failed = true;
            }
            finally
            {
                if (_socket is { } socket)
                {
                    TcpFailureCauses.Close(socket, _options.LingerZero);
                }

                await ObserveSendAsync();
            }

            if (failed && _options.Mode == TcpLoadMode.Persistent)
            {
                await PauseAsync();
            }
        }
    }

    /// <summary>Called by the generator's watchdog: a connect or an answer waiting longer than the timeout ends as a timeout.</summary>
    public void CheckTimeout(long now, long timeoutTicks)
    {
        var since = Volatile.Read(ref _waitingSince);
        if (since != 0 && now - since > timeoutTicks && !_timedOut)
        {
            _timedOut = true;
            _socket?.Dispose();
        }
    }

    public void Dispose() => _socket?.Dispose();

    /// <summary>
    /// Persistent: messages until the stop, the window kept full. Churn: one message. False when the
    /// exchange failed (counted). A send is not awaited before the next read: a window larger than the
    /// socket buffers would otherwise block both ends, each writing while the other does not read.
    /// </summary>
    private async Task<bool> ExchangeAsync()
    {
        _next = _expected = 0;
        _partial = 0;
        _exchange.Reset();
        if (_state.Schedule is { } schedule)
        {
            return await PacedAsync(schedule);
        }

        _sending = SendAsync(_options.Mode == TcpLoadMode.Churn ? 1 : _options.Window);
        var owed = 0;
        while (InFlight > 0 || owed > 0)
        {
            // Answered messages are replaced once the last send has gone out; until then the reads go on.
            if (owed > 0 && (_sending.IsCompleted || InFlight == 0))
            {
                await _sending;
                _sending = _state.Stopping ? Task.CompletedTask : SendAsync(owed);
                owed = 0;
                continue;
            }

            var completed = await ReceiveAsync();
            if (completed < 0)
            {
                return false;
            }

            if (_options.Mode == TcpLoadMode.Persistent && completed > 0 && !_state.Stopping)
            {
                owed += completed;
            }
        }

        await _sending;
        return true;
    }

    /// <summary>Open model (persistent): the next due request, sent alone, its answer read whole before the next is taken.</summary>
    private async Task<bool> PacedAsync(ArrivalSchedule schedule)
    {
        while (!_state.Stopping)
        {
            var due = await schedule.NextAsync(_waiter, out var freeWaiting);
            if (due < 0 || _state.Stopping)
            {
                break;
            }

            _sending = SendAsync(1, due, freeWaiting);
            await _sending;
            while (InFlight > 0)
            {
                if (await ReceiveAsync() < 0)
                {
                    return false;
                }
            }
        }

        return true;
    }

    /// <summary>
    /// One read, its answers counted: how many completed, or -1 when the exchange failed (counted
    /// and noted). Its state machine is pooled: nothing allocated per read.
    /// </summary>
    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<int> ReceiveAsync()
    {
        var read = await _socket!.ReceiveAsync(_receive, SocketFlags.None, _state.Abort);
        if (read == 0)
        {
            EndInFlight(TcpFailure.ShortEcho);
            Note("the server closed the connection before the answer was complete");
            return -1;
        }

        var completed = Consume(_receive.AsSpan(0, read));
        if (completed < 0)
        {
            Unexpected(unasked: completed == Unasked);
            return -1;
        }

        return completed;
    }

    /// <summary>
    /// Bytes that are not the answer in flight: a mismatch, or an answer nothing asked for (a
    /// server that echoes twice), counted once at least.
    /// </summary>
    private void Unexpected(bool unasked)
    {
        var counted = Counters.Failed[(int)TcpFailure.Mismatch];
        EndInFlight(TcpFailure.Mismatch);
        if (unasked && Counters.Failed[(int)TcpFailure.Mismatch] == counted && _state.Measuring)
        {
            Counters.Failed[(int)TcpFailure.Mismatch]++;
        }

        Note(unasked
            ? "the server sent bytes after the last answer that nothing asked for"
            : "the answer is not the one expected (an echo: other bytes than were sent)");
    }

    /// <summary>
    /// Reads received bytes as the answers in flight; returns how many completed, -1 on a wrong
    /// answer, or <see cref="Unasked"/> for a byte when nothing was in flight.
    /// </summary>
    private int Consume(ReadOnlySpan<byte> data)
    {
        var completed = 0;
        var now = Stopwatch.GetTimestamp();
        while (data.Length > 0)
        {
            if (InFlight == 0)
            {
                return Unasked;
            }

            var answer = _exchange.Read(_expected, data, out var consumed);
            if (answer == TcpAnswer.Invalid || (uint)consumed > (uint)data.Length)
            {
                return -1;
            }

            if (answer == TcpAnswer.Incomplete)
            {
                _partial += consumed;
                return consumed == data.Length ? completed : -1;
            }

            data = data[consumed..];
            var slot = (int)(_expected % _options.Window);
            if (_counted[slot])
            {
                Counters.Answered++;
                _timers.RoundTrips.Record(Nanoseconds(now - _timedFrom[slot]));
                _timers.Uncorrected?.Record(Nanoseconds(now - _sentAt[slot]));
            }
            else
            {
                Counters.WarmupAnswered++;
            }

            _expected++;
            _partial = 0;
            completed++;
            Volatile.Write(ref _waitingSince, InFlight > 0 ? _sentAt[(int)(_expected % _options.Window)] : 0);
        }

        return completed;
    }

    /// <param name="count">Requests to send at once.</param>
    /// <param name="due">Open model: the request's due time (Stopwatch ticks), what its round trip counts from; 0 in the closed loop.</param>
    /// <param name="freeWaiting">Open model: this connection was idle when the request was taken, so lateness is the load's.</param>
    private async Task SendAsync(int count, long due = 0, bool freeWaiting = false)
    {
        var size = _exchange.MaxRequestSize;
        var now = Stopwatch.GetTimestamp();
        var measuring = _state.Measuring;
        var length = 0;
        for (var m = 0; m < count; m++)
        {
            var number = _next + m;
            var written = _exchange.WriteRequest(number, _send.AsSpan(length, size));
            length += written is > 0 && written <= size ? written
                : throw new InvalidOperationException($"The TCP client wrote a request of {written} bytes; 1 to its MaxRequestSize of {size} are allowed.");
            var slot = (int)(number % _options.Window);
            _sentAt[slot] = now;
            _timedFrom[slot] = due == 0 ? now : due;
            _counted[slot] = measuring;
            if (measuring)
            {
                Counters.Sent++;
                if (due != 0 && now - due > _state.LateTicks)
                {
                    Counters.Late++;
                    Counters.LateByLoad += freeWaiting ? 1 : 0;
                }
            }
        }

        if (InFlight == 0)
        {
            Volatile.Write(ref _waitingSince, now);
        }

        _next += count;
        await _socket!.SendAsync(_send.AsMemory(0, length), SocketFlags.None, _state.Abort);
    }

    private async Task<bool> ConnectAsync()
    {
        _timedOut = false;
        var socket = new Socket(_endPoint.Remote.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _socket = socket;
        var measuring = _state.Measuring;
        var started = Stopwatch.GetTimestamp();
        Volatile.Write(ref _waitingSince, started);
        try
        {
            if (_endPoint.Local is { } local)
            {
                socket.Bind(new IPEndPoint(local, 0));
            }

            await socket.ConnectAsync(_endPoint.Remote, _state.Abort);
            Volatile.Write(ref _waitingSince, 0);
            if (measuring)
            {
                Counters.Connects++;
                _timers.Connects.Record(Nanoseconds(Stopwatch.GetTimestamp() - started));
            }

            return true;
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or OperationCanceledException)
        {
            Volatile.Write(ref _waitingSince, 0);
            socket.Dispose();
            if (measuring && !_state.Abort.IsCancellationRequested)
            {
                Counters.ConnectFailed[(int)Classify(ex)]++;
                Note($"connect: {ex.Message}");
            }

            return false;
        }
    }

    /// <summary>Ends the messages in flight: failed by <paramref name="cause"/>, or unfinished (null: the run stopped).</summary>
    private void EndInFlight(TcpFailure? cause)
    {
        for (var number = _expected; number < _next; number++)
        {
            if (!_counted[(int)(number % _options.Window)])
            {
                continue;
            }

            if (cause is { } failure)
            {
                Counters.Failed[(int)failure]++;
            }
            else
            {
                Counters.Unfinished++;
            }
        }

        _expected = _next;
        Volatile.Write(ref _waitingSince, 0);
    }

    /// <summary>The send still under way when the exchange ended: its socket is closed, so it ends now; its error is the exchange's, already counted.</summary>
    private async Task ObserveSendAsync()
    {
        try
        {
            await _sending;
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException or OperationCanceledException)
        {
        }

        _sending = Task.CompletedTask;
    }

    /// <summary>The watchdog's timeout, when it fired (part of an answer and no more: the server cut it short), else the socket's error.</summary>
    private TcpFailure Classify(Exception ex) =>
        _timedOut ? (_partial > 0 ? TcpFailure.ShortEcho : TcpFailure.Timeout) : TcpFailureCauses.Of(ex);

    private void Note(string message) => FirstError ??= message;

    /// <summary>A little while before connecting again, so a refusing server is not spun against.</summary>
    private Task PauseAsync() => Task.Delay(10, _state.Abort).ContinueWith(static _ => { }, TaskScheduler.Default);

    private static long Nanoseconds(long ticks) => (long)(ticks * (1e9 / Stopwatch.Frequency));
}

using System.Diagnostics;
using System.Net;
using System.Net.WebSockets;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using Benchmarks.Load.Core;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.WebSockets;

/// <summary>One WebSocket client of a load run, in one of the three modes; counts only what the window measures.</summary>
internal sealed class WebSocketLoadConnection : IDisposable
{
    private static readonly double s_nanosecondsPerTick = 1_000_000_000.0 / Stopwatch.Frequency;

    private readonly WebSocketLoadOptions _options;
    private readonly WebSocketRunState _state;
    private readonly LoadEndPoint _endPoint;
    private readonly LoadTimers _timers;
    private readonly OpenModel.ScheduleWaiter _waiter = new();
    private readonly int _seed;
    private CancellationTokenSource _replyTimeout = new();

    public WebSocketLoadConnection(WebSocketLoadOptions options, WebSocketRunState state, LoadEndPoint endPoint, LoadTimers timers, int seed)
    {
        _options = options;
        _state = state;
        _endPoint = endPoint;
        _timers = timers;
        _seed = seed;
    }

    public long Sent;
    public long Good;
    public long Bad;
    public long Lost;
    public long Unfinished;
    public long Errors;
    public long Connects;

    /// <summary>Replies to messages sent before the window, unchecked: the warm-up's per-second rate.</summary>
    public long WarmupReplies;

    /// <summary>Open model: messages sent later than the tolerance after their due time.</summary>
    public long Late;

    /// <summary>Open model: of <see cref="Late"/>, those sent late although a connection was free (the load fell behind).</summary>
    public long LateByLoad;

    /// <summary>Every handshake that completed, warm-up included (echo connections open during warm-up).</summary>
    public long Handshakes;

    public string? FirstError { get; private set; }

    public void Dispose() => _replyTimeout.Dispose();

    public async Task RunAsync()
    {
        while (!_state.Stopping)
        {
            var measured = _state.Measuring;
            WebSocket? socket = null;
            try
            {
                var started = Stopwatch.GetTimestamp();
                using var timeout = new CancellationTokenSource(_options.Timeout);
                CoalescingStream? held;
                (socket, held) = await WebSocketConnector.ConnectAsync(_endPoint.Remote, _options.Url, _endPoint.Local,
                    _options.Mode == WebSocketLoadMode.EchoAsync, timeout.Token);
                var connected = Stopwatch.GetTimestamp();
                Handshakes++;
                if (measured)
                {
                    Connects++;
                    _timers.Connects.Record((long)((connected - started) * s_nanosecondsPerTick));
                }

                if (_options.Mode == WebSocketLoadMode.Connect)
                {
                    await CloseAsync(socket);
                    continue;
                }

                if (_options.Mode == WebSocketLoadMode.Idle)
                {
                    Interlocked.Increment(ref _state.Open);
                    await Task.Delay(Timeout.Infinite, _state.Abort).ContinueWith(static _ => { }, TaskScheduler.Default);
                    return;
                }

                if (_options.Mode == WebSocketLoadMode.EchoSync)
                {
                    await EchoSyncAsync(socket);
                }
                else
                {
                    await EchoAsyncAsync(socket, held!);
                }

                await CloseAsync(socket);
                return;
            }
            catch (Exception ex) when (ex is WebSocketException or SocketException or IOException or OperationCanceledException or ObjectDisposedException
                or TimeoutException)
            {
                // Once the run is stopping, what is still waiting is unfinished (counted below), not an error.
                if (_state.Stopping && (_state.Aborted || ex is OperationCanceledException))
                {
                    return;
                }

                if (measured || _state.Measuring)
                {
                    Errors++;
                    FirstError ??= ex is OperationCanceledException ? "timed out" : ex.Message;
                }

                // Do not spin against a refusing server.
                await Task.Delay(10);
            }
            finally
            {
                socket?.Dispose();
            }
        }
    }

    private async Task EchoSyncAsync(WebSocket socket)
    {
        var type = EchoMessages.TypeOf(_options.Message);
        var send = new byte[Math.Max(64, _options.TextLength)];
        var receive = new byte[Math.Max(256, _options.TextLength + 64)];
        var n = _seed;
        while (!_state.Stopping)
        {
            // Open model: the next due message first; its wait for this connection counts in its round trip.
            var freeWaiting = false;
            var due = _state.Schedule is { } schedule ? await schedule.NextAsync(_waiter, out freeWaiting) : 0;
            if (due < 0 || _state.Stopping)
            {
                break;
            }

            var measured = _state.Measuring;
            var length = EchoMessages.Write(_options.Message, n, _options.TextLength, send);
            var sentAt = Stopwatch.GetTimestamp();
            if (measured)
            {
                Sent++;
                if (due != 0 && sentAt - due > _state.LateTicks)
                {
                    Late++;
                    if (freeWaiting)
                    {
                        LateByLoad++;
                    }
                }
            }

            try
            {
                await socket.SendAsync(send.AsMemory(0, length), type, true, _state.Abort);
                var (replyLength, replyType) = await ReceiveMessageAsync(socket, receive);
                var now = Stopwatch.GetTimestamp();
                if (!measured)
                {
                    WarmupReplies++;
                }
                else if (EchoMessages.IsValidReply(_options.Message, n, send.AsSpan(0, length), receive.AsSpan(0, replyLength), replyType))
                {
                    Good++;
                    _timers.RoundTrips.Record((long)((now - (due == 0 ? sentAt : due)) * s_nanosecondsPerTick));
                    _timers.Uncorrected?.Record((long)((now - sentAt) * s_nanosecondsPerTick));
                }
                else
                {
                    Bad++;
                    FirstError ??= $"reply to message {n} broke the {_options.Message} echo rule";
                }
            }
            catch (Exception) when (measured)
            {
                if (_state.Aborted)
                {
                    Unfinished++;
                    throw;
                }

                Lost++;
                throw;
            }

            n++;
        }
    }

    private async Task EchoAsyncAsync(WebSocket socket, CoalescingStream held)
    {
        var window = _options.Window;
        var sentAt = new long[window];
        var counted = new bool[window];
        var binary = EchoMessages.TypeOf(_options.Message) == WebSocketMessageType.Binary;
        var masks = new Random(_seed);
        var send = new byte[Math.Max(64, _options.TextLength)];
        var expected = new byte[Math.Max(64, _options.TextLength)];
        var receive = new byte[Math.Max(256, _options.TextLength + 64)];

        // Free slots go back to the sender in batches (half the window, or all once nothing is in flight), as TCP
        // avoids the silly window syndrome: a sender woken per reply would send, and pay a system call, per message.
        var refill = Math.Max(1, window / 2);
        var freed = 0;
        using var senderStop = CancellationTokenSource.CreateLinkedTokenSource(_state.Abort);
        using var slots = new SlotGate(window, senderStop.Token);
        long nextToSend = 0, nextToReceive = 0;
        var receiver = Task.Run(async () =>
        {
            while (true)
            {
                if (_state.Stopping && Volatile.Read(ref nextToReceive) == Volatile.Read(ref nextToSend))
                {
                    return;
                }

                var (replyLength, replyType) = await ReceiveMessageAsync(socket, receive);
                var now = Stopwatch.GetTimestamp();
                var index = nextToReceive;
                var n = unchecked(_seed + (int)index);
                var slot = (int)(index % window);
                if (counted[slot])
                {
                    var expectedLength = EchoMessages.Write(_options.Message, n, _options.TextLength, expected);
                    if (EchoMessages.IsValidReply(_options.Message, n, expected.AsSpan(0, expectedLength), receive.AsSpan(0, replyLength), replyType))
                    {
                        Good++;
                        _timers.RoundTrips.Record((long)((now - sentAt[slot]) * s_nanosecondsPerTick));
                    }
                    else
                    {
                        Bad++;
                        FirstError ??= $"reply to message {n} broke the {_options.Message} echo rule";
                    }
                }
                else
                {
                    WarmupReplies++;
                }

                Volatile.Write(ref nextToReceive, index + 1);
                if (++freed >= refill || index + 1 == Volatile.Read(ref nextToSend))
                {
                    slots.Release(freed);
                    freed = 0;
                }
            }
        });
        _ = receiver.ContinueWith(_ => senderStop.Cancel(), CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);

        try
        {
            while (!_state.Stopping)
            {
                // Take every free slot at once: the burst leaves in one socket write.
                var burst = await slots.TakeAllAsync();

                if (_state.Stopping)
                {
                    break;
                }

                // The frames are written in place, in one buffer, and leave in one socket write.
                held.Hold();
                for (var i = 0; i < burst; i++)
                {
                    var index = nextToSend;
                    var slot = (int)(index % window);
                    var measured = _state.Measuring;
                    counted[slot] = measured;
                    if (measured)
                    {
                        Sent++;
                    }

                    var length = EchoMessages.Write(_options.Message, unchecked(_seed + (int)index), _options.TextLength, send);
                    var frame = held.Reserve(ClientFrame.MaxHeaderLength + length);
                    held.Unreserve(frame.Length - ClientFrame.Write(send.AsSpan(0, length), binary, masks, frame));
                    sentAt[slot] = Stopwatch.GetTimestamp();
                    Volatile.Write(ref nextToSend, index + 1);
                }

                await held.SendHeldAsync(senderStop.Token);
            }

            // Nothing in flight: the receiver would otherwise wait for a reply that cannot come.
            if (Volatile.Read(ref nextToReceive) == Volatile.Read(ref nextToSend))
            {
                await _replyTimeout.CancelAsync();
            }

            // Let the replies in flight arrive, up to the timeout.
            await receiver.WaitAsync(_options.Timeout, senderStop.Token);
        }
        catch (Exception ex) when (ex is TimeoutException or OperationCanceledException or WebSocketException or IOException)
        {
            var outstanding = CountedOutstanding(counted, Volatile.Read(ref nextToReceive), Volatile.Read(ref nextToSend), window);
            if (receiver.IsFaulted && receiver.Exception!.InnerException is not OperationCanceledException)
            {
                // The receiver gave up (no reply in time, abnormal close): what was in flight is lost.
                Lost += outstanding;
                throw receiver.Exception.InnerException!;
            }

            if (_state.Aborted || ex is TimeoutException)
            {
                Unfinished += outstanding;
            }
            else
            {
                Lost += outstanding;
                throw;
            }
        }
    }

    private static long CountedOutstanding(bool[] counted, long received, long sent, int window)
    {
        long outstanding = 0;
        for (var i = received; i < sent; i++)
        {
            outstanding += counted[(int)(i % window)] ? 1 : 0;
        }

        return outstanding;
    }

    /// <summary>Receives one whole message; a reply later than the timeout is an error, and aborts the socket.</summary>
    // Pooled builders: a reply that has to be waited for (nearly every one) does not allocate a task.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<(int Length, WebSocketMessageType Type)> ReceiveMessageAsync(WebSocket socket, byte[] buffer)
    {
        if (!_replyTimeout.TryReset())
        {
            _replyTimeout.Dispose();
            _replyTimeout = new CancellationTokenSource();
        }

        _replyTimeout.CancelAfter(_options.Timeout);
        using var abort = _state.Abort.UnsafeRegister(static s => ((CancellationTokenSource)s!).Cancel(), _replyTimeout);
        try
        {
            return await ReceiveWholeAsync(socket, buffer, _replyTimeout.Token);
        }
        catch (OperationCanceledException) when (!_state.Aborted && !_state.Stopping)
        {
            throw new TimeoutException($"no reply within {_options.Timeout.TotalSeconds:0.###} s");
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private static async ValueTask<(int Length, WebSocketMessageType Type)> ReceiveWholeAsync(WebSocket socket, byte[] buffer,
        CancellationToken cancellationToken)
    {
        var length = 0;
        while (true)
        {
            var result = await socket.ReceiveAsync(buffer.AsMemory(length), cancellationToken);
            if (result.MessageType == WebSocketMessageType.Close)
            {
                throw new WebSocketException(WebSocketError.ConnectionClosedPrematurely,
                    $"the server closed the connection ({socket.CloseStatus} {socket.CloseStatusDescription})");
            }

            length += result.Count;
            if (result.EndOfMessage)
            {
                return (length, result.MessageType);
            }

            if (length == buffer.Length)
            {
                throw new WebSocketException(WebSocketError.Faulted, "a reply is longer than any message this run sends");
            }
        }
    }

    private static async Task CloseAsync(WebSocket socket)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        try
        {
            await socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, timeout.Token);
        }
        catch (Exception ex) when (ex is WebSocketException or OperationCanceledException or IOException)
        {
        }
    }
}

using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Benchmarks.IoUring;
using Benchmarks.Load.Core;
using Benchmarks.Load.Engines.Native;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Load.Statistics;
using static Benchmarks.IoUring.IoUringNative;

namespace Benchmarks.Load.Engines.IoUring;

/// <summary>
/// One thread of the io_uring engine: it owns its connections and one ring, and each loop turn is
/// one io_uring_enter that submits the turn's connects and sends and waits for completions. A
/// connection's responses arrive through one multishot receive into the worker's provided-buffer
/// ring and are tallied where the kernel wrote them; when a batch's last response is parsed, the
/// next batch's send is queued for the same turn. Failures, timeouts and connect retries (a burst
/// at a time) are counted as the epoll engine counts them; a 20 ms timeout in the ring checks them.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class IoUringLoadWorker : NativeWorker<IoUringLoadConnection>
{
    private const byte OpConnect = 1;
    private const byte OpReceive = 2;
    private const byte OpSend = 3;
    private const byte OpTick = 4;

    /// <summary>Connects in flight at once, as the epoll engine's (a listen backlog is not flooded).</summary>
    private const int ConnectBurst = 256;
    private const int BufferSize = 4096;
    private const long TickNanoseconds = 20_000_000;

    private static readonly long s_retryTicks = Stopwatch.Frequency / 10;

    private readonly LoadRunState _state;
    private readonly IoUringLoadConnection[] _connections;
    private readonly SocketAddressBytes _address;
    private readonly long _timeoutTicks;
    private IoUringRing? _ring;
    private BufferRing? _buffers;
    private byte* _batch;
    private int _batchLength;
    private byte* _socketAddress;
    private long* _tick;
    private int _connecting;
    private bool _retryDue;

    public IoUringLoadWorker(int number, LoadRunState state, IoUringLoadConnection[] connections, SocketAddressBytes address, long timeoutTicks)
        : base(number, connections)
    {
        _state = state;
        _connections = connections;
        _address = address;
        _timeoutTicks = timeoutTicks;
    }

    protected override void Work()
    {
        var entries = (uint)RoundUp(Math.Clamp(_connections.Length * 2, 256, 4096));
        _ring = IoUringRing.Create(entries, sqPoll: false, out var error)
            ?? throw new IOException($"io_uring_setup: {IoUringProbe.Describe(error)}");
        _buffers = BufferRing.Create(_ring, 0, RoundUp(Math.Clamp(_connections.Length * 2, 64, 8192)), BufferSize, out error)
            ?? throw new IOException($"registering the provided-buffer ring: {IoUringProbe.Describe(error)}");
        var batch = _state.Batch.Span;
        _batchLength = batch.Length;
        _batch = (byte*)NativeMemory.Alloc((nuint)batch.Length);
        batch.CopyTo(new Span<byte>(_batch, batch.Length));
        _socketAddress = (byte*)NativeMemory.Alloc((nuint)_address.Bytes.Length);
        _address.Bytes.CopyTo(new Span<byte>(_socketAddress, _address.Bytes.Length));
        _tick = (long*)NativeMemory.AllocZeroed(2 * sizeof(long));
        _tick[1] = TickNanoseconds;
        ArmTick();
        CheckTimers(Stopwatch.GetTimestamp());
        Loop();
    }

    protected override void Release()
    {
        foreach (var connection in _connections)
        {
            Close(connection);
        }

        _buffers?.Dispose();
        _ring?.Dispose();
        NativeMemory.Free(_batch);
        NativeMemory.Free(_socketAddress);
        NativeMemory.Free(_tick);
        _batch = null;
        _socketAddress = null;
        _tick = null;
    }

    private void Loop()
    {
        var ring = _ring!;
        while (!_state.Aborted)
        {
            if (_state.Stopping && NothingOwed())
            {
                return;
            }

            _buffers!.Publish();
            var result = ring.Submit(1);
            if (result < 0 && result != -EBusy && result != -EAgain)
            {
                throw new IOException($"io_uring_enter: {IoUringProbe.Describe(-result)}");
            }

            var now = Stopwatch.GetTimestamp();
            var completions = ring.Completions();
            for (uint i = 0; i < completions.Count; i++)
            {
                ref readonly var cqe = ref completions[i];
                Complete(cqe.UserData, cqe.Result, cqe.Flags, now);
            }

            ring.Advance(completions.Count);
            if (_retryDue && _connecting < ConnectBurst)
            {
                CheckTimers(now);
            }
        }
    }

    private void Complete(ulong userData, int result, uint flags, long now)
    {
        var op = (byte)userData;
        if (op == OpTick)
        {
            CheckTimers(now);
            ArmTick();
            return;
        }

        var connection = _connections[(int)((userData >> 8) & 0xFFFFFF)];
        var current = connection.Generation == (uint)(userData >> 32);
        switch (op)
        {
            case OpReceive:
                var hasBuffer = (flags & CqeFBuffer) != 0;
                var id = (ushort)(flags >> CqeBufferShift);
                if (current)
                {
                    Received(connection, result, (flags & CqeFMore) != 0, hasBuffer && result > 0 ? _buffers!.Read(id, result).Span : default, now);
                }

                if (hasBuffer)
                {
                    _buffers!.Give(id);
                }

                return;
            case OpConnect when current:
                Connected(connection, result, now);
                return;
            case OpSend when current:
                Sent(connection, result, now);
                return;
        }
    }

    private void Connected(IoUringLoadConnection connection, int result, long now)
    {
        connection.Connecting = false;
        _connecting--;
        if (result < 0)
        {
            ConnectFailed(connection, $"connect to {_state.EndPoint}: {IoUringProbe.Describe(-result)}", now);
            return;
        }

        connection.WaitingSince = 0;
        connection.Parser.Reset();
        Receive(connection);
        Next(connection, now);
    }

    private void Next(IoUringLoadConnection connection, long now)
    {
        if (_state.Stopping)
        {
            return;
        }

        var measured = _state.Measuring;
        connection.Measured = measured;
        connection.Outstanding = _state.Depth;
        connection.SentAt = now;
        connection.WaitingSince = now;
        connection.Written = 0;
        if (measured)
        {
            connection.Counters.Sent += _state.Depth;
        }

        Send(connection);
    }

    private void Sent(IoUringLoadConnection connection, int result, long now)
    {
        connection.Sending = false;
        if (result < 0)
        {
            Fail(connection, "write: " + IoUringProbe.Describe(-result), ref connection.Counters.WriteErrors);
            return;
        }

        connection.Written += result;
        if (connection.Written < _batchLength)
        {
            Send(connection);
        }
        else if (connection.Outstanding == 0 && connection.Fd >= 0)
        {
            // Every answer came before the send's own completion was read: the next batch goes now.
            Next(connection, now);
        }
    }

    private void Received(IoUringLoadConnection connection, int received, bool more, ReadOnlySpan<byte> data, long now)
    {
        if (!more)
        {
            connection.Receiving = false;
        }

        if (received == 0)
        {
            if (connection.Outstanding > 0)
            {
                Fail(connection, "read: the server closed the connection with requests outstanding", ref connection.Counters.ReadErrors);
            }
            else
            {
                Reopen(connection, now);
            }

            return;
        }

        if (received < 0)
        {
            if (received == -ENoBufs && connection.Fd >= 0)
            {
                // The worker's buffers ran out: the kernel ended the receive, and it is armed again.
                Receive(connection);
            }
            else if (received != -ECanceled)
            {
                Fail(connection, "read: " + IoUringProbe.Describe(-received), ref connection.Counters.ReadErrors);
            }

            return;
        }

        var measured = connection.Measured;
        if (measured)
        {
            connection.Counters.BytesReceived += received;
        }

        var outcome = ResponseTally.Process(
            connection.Parser, data, ref connection.Counters, Histogram, null,
            new BatchTimes(connection.SentAt, connection.SentAt, now), measured, ref connection.Outstanding);
        switch (outcome)
        {
            case ResponseOutcome.ServerClosing:
                if (connection.Outstanding > 0)
                {
                    Fail(connection, null, ref connection.Counters.ReadErrors);
                }
                else
                {
                    Reopen(connection, now);
                }

                return;
            case ResponseOutcome.Invalid:
                connection.CountMalformed(measured);
                Reopen(connection, now);
                return;
            case ResponseOutcome.UnexpectedData:
                Fail(connection, "read: the server sent data after the last response it owed (an extra or oversized response)",
                    ref connection.Counters.ReadErrors);
                return;
        }

        if (!connection.Receiving)
        {
            Receive(connection);
        }

        if (connection.Outstanding == 0)
        {
            connection.WaitingSince = 0;
            if (!connection.Sending)
            {
                Next(connection, now);
            }
        }
    }

    /// <summary>Counts a failure with its first cause (in the window of the batch it hit), closes the socket and connects again at the next check.</summary>
    private void Fail(IoUringLoadConnection connection, string? cause, ref long counter)
    {
        connection.CountFailure(connection.Measured || (connection.Connecting && _state.Measuring), _state, cause, ref counter, connection.Outstanding);
        Close(connection);
        connection.RetryAt = 0;
        _retryDue = true;
    }

    private void ConnectFailed(IoUringLoadConnection connection, string cause, long now)
    {
        connection.CountConnectFailure(_state, cause);
        Close(connection);

        // Back off a little so a refusing server is not spun against.
        connection.RetryAt = now + s_retryTicks;
        _retryDue = true;
    }

    private void Reopen(IoUringLoadConnection connection, long now)
    {
        Close(connection);
        Connect(connection, now);
    }

    private void Connect(IoUringLoadConnection connection, long now)
    {
        if (_state.Stopping)
        {
            return;
        }

        var fd = TcpSocket(_address.Family);
        if (fd < 0)
        {
            ConnectFailed(connection, $"connect to {_state.EndPoint}: socket: {IoUringProbe.Describe(-fd)}", now);
            return;
        }

        connection.Fd = fd;
        connection.Connecting = true;
        _connecting++;
        connection.WaitingSince = now;
        var sqe = _ring!.Next();
        sqe->Opcode = IoUringNative.OpConnect;
        sqe->Fd = fd;
        sqe->Address = (ulong)_socketAddress;
        sqe->Offset = (ulong)_address.Bytes.Length;
        sqe->UserData = Data(OpConnect, connection);
    }

    private void Receive(IoUringLoadConnection connection)
    {
        connection.Receiving = true;
        var sqe = _ring!.Next();
        sqe->Opcode = OpRecv;
        sqe->Fd = connection.Fd;
        sqe->IoPriority = RecvMultishot;
        sqe->Flags = SqeBufferSelect;
        sqe->BufferGroup = _buffers!.Group;
        sqe->UserData = Data(OpReceive, connection);
    }

    private void Send(IoUringLoadConnection connection)
    {
        connection.Sending = true;
        var sqe = _ring!.Next();
        sqe->Opcode = IoUringNative.OpSend;
        sqe->Fd = connection.Fd;
        sqe->Address = (ulong)(_batch + connection.Written);
        sqe->Length = (uint)(_batchLength - connection.Written);
        sqe->OpFlags = MsgNoSignal;
        sqe->UserData = Data(OpSend, connection);
    }

    private void ArmTick()
    {
        var sqe = _ring!.Next();
        sqe->Opcode = OpTimeout;
        sqe->Fd = -1;
        sqe->Address = (ulong)_tick;
        sqe->Length = 1;
        sqe->UserData = OpTick;
    }

    /// <summary>
    /// Shuts the socket (which ends its receive and any send or connect in flight) and closes it;
    /// completions still on their way carry the old generation and are dropped.
    /// </summary>
    private void Close(IoUringLoadConnection connection)
    {
        if (connection.Fd < 0)
        {
            return;
        }

        if (connection.Connecting)
        {
            connection.Connecting = false;
            _connecting--;
        }

        _ = Shutdown(connection.Fd, ShutBoth);
        _ = IoUringNative.Close(connection.Fd);
        connection.Fd = -1;
        connection.Generation++;
        connection.Receiving = false;
        connection.Sending = false;
        connection.WaitingSince = 0;
    }

    /// <summary>Connects what is closed and due (a burst at a time), and fails what waited on the server past the timeout.</summary>
    private void CheckTimers(long now)
    {
        _retryDue = false;
        var budget = ConnectBurst - _connecting;
        foreach (var connection in _connections)
        {
            if (connection.Fd < 0)
            {
                if (now >= connection.RetryAt && !_state.Stopping)
                {
                    if (budget-- > 0)
                    {
                        Connect(connection, now);
                    }
                    else
                    {
                        _retryDue = true;
                    }
                }
            }
            else if (connection.WaitingSince != 0 && now - connection.WaitingSince > _timeoutTicks)
            {
                Fail(connection, connection.Connecting ? "connect timed out" : "request timed out", ref connection.Counters.Timeouts);
            }
        }
    }

    private bool NothingOwed()
    {
        foreach (var connection in _connections)
        {
            if (connection.Outstanding > 0)
            {
                return false;
            }
        }

        return true;
    }

    private static ulong Data(byte op, IoUringLoadConnection connection) => op | ((ulong)(uint)connection.Index << 8) | ((ulong)connection.Generation << 32);

    private static int RoundUp(int value) => (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)value);
}

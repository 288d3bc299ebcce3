using System.Diagnostics;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// The requests in flight on one HTTP/2 connection, a slot each: found by stream id, their body
/// kept for the validator (one buffer per slot, made on first use), counted good or bad with
/// their latency when their stream ends, or lost when it is reset or the connection fails.
/// </summary>
internal sealed class Http2Streams
{
    private static readonly double s_nanosecondsPerTick = 1_000_000_000.0 / Stopwatch.Frequency;

    private readonly IResponseValidator? _validator;
    private readonly bool _grpc;
    private readonly Scenarios.GrpcCallKind _kind;
    private readonly Http2StreamSlot[] _slots;
    private readonly byte[]?[] _bodies;
    private int _lastFound;

    /// <param name="grpc">gRPC calls: good only with <c>grpc-status: 0</c>, each counted by its status.</param>
    /// <param name="kind">gRPC streams: a ping-pong stream's answers are round trips, a server stream's messages are counted; either stays open.</param>
    public Http2Streams(int capacity, IResponseValidator? validator, bool grpc = false, Scenarios.GrpcCallKind kind = Scenarios.GrpcCallKind.Unary)
    {
        _validator = validator;
        _grpc = grpc;
        _kind = kind;
        _slots = new Http2StreamSlot[capacity];
        _bodies = new byte[]?[capacity];
    }

    public int Capacity => _slots.Length;

    /// <summary>The streams are gRPC calls.</summary>
    public bool Grpc => _grpc;

    /// <summary>Requests sent and not yet answered.</summary>
    public int Outstanding { get; private set; }

    /// <summary>Slots taken by open streams: <see cref="Outstanding"/> for requests, more for ping-pong streams with no message in flight.</summary>
    public int Occupied { get; private set; }

    public ref Http2StreamSlot this[int index] => ref _slots[index];

    public void Clear()
    {
        Array.Clear(_slots);
        (Outstanding, Occupied) = (0, 0);
    }

    /// <summary>Takes a free slot for a new stream. Call only with fewer than <see cref="Capacity"/> outstanding.</summary>
    public void Open(int stream, long timedFrom, long sentAt, bool measured)
    {
        var index = 0;
        while (_slots[index].Id != 0)
        {
            index++;
        }

        // A server stream's messages are counted as they come, by the window's flag then: the stream itself is never a request in the window.
        _slots[index] = new Http2StreamSlot { Id = stream, Measured = measured
            && _kind != Scenarios.GrpcCallKind.ServerStreaming, TimedFrom = timedFrom, SentAt = sentAt, ContentLength = -1, GrpcStatus = -1, InFlight = true };
        Outstanding++;
        Occupied++;
    }

    /// <summary>The slot of an open stream; -1 when none. Answers mostly come in order, so the search starts at the last found.</summary>
    public int Find(int stream)
    {
        for (var i = 0; i < _slots.Length; i++)
        {
            var index = (_lastFound + i) % _slots.Length;
            if (_slots[index].Id == stream)
            {
                _lastFound = index;
                return index;
            }
        }

        return -1;
    }

    /// <summary>Body bytes of the stream's response: kept for the validator while within its limit.</summary>
    public void Body(int index, ReadOnlySpan<byte> data)
    {
        ref var slot = ref _slots[index];
        if (_validator is { } validator && !slot.Malformed)
        {
            if (slot.BodyLength + data.Length > validator.MaxBodyLength)
            {
                slot.Malformed = true;
            }
            else
            {
                var body = _bodies[index] ??= new byte[validator.MaxBodyLength];
                data.CopyTo(body.AsSpan((int)slot.BodyLength));
            }
        }

        slot.BodyLength += data.Length;
    }

    /// <summary>
    /// The stream ended: its response is good (2xx or 3xx, its content-length kept, its body valid;
    /// a gRPC call's <c>grpc-status</c> 0 as well) or bad, and its latency recorded; a gRPC call is
    /// counted by its status.
    /// </summary>
    /// <param name="measuring">Whether the load is in its window now (what a server stream's end is counted by).</param>
    public void Complete(int index, long now, ref ConnectionCounters counters, LatencyHistogram histogram, LatencyHistogram? uncorrected,
        bool measuring = false)
    {
        ref var slot = ref _slots[index];
        if (!Protocols.Grpc.GrpcCall.AnsweredOnce(_kind))
        {
            EndStream(index, measuring, now, ref counters, histogram, uncorrected);
            return;
        }

        // A unary gRPC answer is one whole, uncompressed message: what breaks that is counted by its cause, whatever its status.
        var framing = !_grpc ? -1
            : slot.Compressed ? Protocols.Grpc.GrpcStatus.Compressed
            : slot.GrpcStatus == 0 && slot.BodyLength != Protocols.Grpc.GrpcCall.PrefixLength + slot.Declared ? Protocols.Grpc.GrpcStatus.BadLength
            : -1;
        if (slot.Measured && _grpc)
        {
            counters.Grpc[framing >= 0 ? framing : Protocols.Grpc.GrpcStatus.Slot(slot.GrpcStatus)]++;
        }

        Count(index, slot.Measured,
            slot.Status is >= 200 and < 400
                && (slot.ContentLength < 0 || slot.ContentLength == slot.BodyLength)
                && (!_grpc || (slot.GrpcStatus == 0 && framing < 0)),
            now, ref counters, histogram, uncorrected);
        Free(ref slot);
    }

    /// <summary>
    /// An answer counted: good when <paramref name="good"/> says so, its body was whole and the
    /// validator accepts it, else bad, and its latency recorded; in the warm-up, only its completion.
    /// </summary>
    private void Count(int index, bool measured, bool good, long now, ref ConnectionCounters counters, LatencyHistogram histogram,
        LatencyHistogram? uncorrected)
    {
        ref var slot = ref _slots[index];
        if (!measured)
        {
            counters.WarmupCompleted++;
            return;
        }

        good = good
            && !slot.Malformed
            && (_validator is not { } validator || validator.IsValid(_bodies[index] is { } body ? body.AsSpan(0, (int)slot.BodyLength) : default));
        if (good)
        {
            counters.Good++;
        }
        else
        {
            counters.Bad++;
        }

        histogram.Record((long)((now - slot.TimedFrom) * s_nanosecondsPerTick));
        uncorrected?.Record((long)((now - slot.SentAt) * s_nanosecondsPerTick));
    }

    /// <summary>
    /// A ping-pong stream's answer to its message in flight is whole: good (a 2xx stream, the
    /// validator's) or bad, and its time recorded; the stream stays open for the next message.
    /// </summary>
    public void RoundTrip(int index, long now, ref ConnectionCounters counters, LatencyHistogram histogram, LatencyHistogram? uncorrected)
    {
        ref var slot = ref _slots[index];
        if (slot.InFlight)
        {
            Count(index, slot.Measured, slot.Status is >= 200 and < 300 && !slot.Compressed, now, ref counters, histogram, uncorrected);
            Outstanding--;
        }

        (slot.InFlight, slot.BodyLength, slot.Declared, slot.Compressed, slot.Malformed) = (false, 0, 0, false, false);
    }

    /// <summary>
    /// A ping-pong stream's next message is due: in flight from now, sent or waiting for a window
    /// (so a connection with messages waiting is not idle, and a window that never comes times
    /// out).
    /// </summary>
    public void Expect(int index)
    {
        if (!_slots[index].InFlight)
        {
            _slots[index].InFlight = true;
            Outstanding++;
        }
    }

    /// <summary>A ping-pong stream's message that waited will not go (the load is stopping): no longer in flight.</summary>
    public void Withdraw(int index)
    {
        ref var slot = ref _slots[index];
        if (slot.InFlight)
        {
            (slot.InFlight, slot.Due) = (false, false);
            Outstanding--;
        }
    }

    /// <summary>A stream this client cancels (a server stream at the load's end): the slot is free, nothing counted.</summary>
    public void Cancel(int index) => Free(ref _slots[index]);

    /// <summary>The slot's stream is done: the slot is free, and its request no longer in flight.</summary>
    private void Free(ref Http2StreamSlot slot)
    {
        Outstanding -= slot.InFlight ? 1 : 0;
        Occupied--;
        (slot.Id, slot.InFlight) = (0, false);
    }

    /// <summary>
    /// A server stream's message is whole: counted (in the window, <paramref name="measuring"/>) as
    /// sent and answered, good or bad, and timed from the stream's previous message; the stream goes on.
    /// </summary>
    public void Streamed(int index, bool measuring, long now, ref ConnectionCounters counters, LatencyHistogram histogram, LatencyHistogram? uncorrected)
    {
        ref var slot = ref _slots[index];
        counters.Sent += measuring ? 1 : 0;
        Count(index, measuring, slot.Status is >= 200 and < 300 && !slot.Compressed, now, ref counters, histogram, uncorrected);
        (slot.BodyLength, slot.Declared, slot.Compressed, slot.Malformed, slot.TimedFrom, slot.SentAt) = (0, 0, false, false, now, now);
    }

    /// <summary>
    /// A gRPC stream ended (the server's trailers): its status counted; a ping-pong message still in
    /// flight is a bad answer (the stream ended instead), and a server stream that ends with an
    /// error is one bad message; the slot is free for a new stream.
    /// </summary>
    private void EndStream(int index, bool measuring, long now, ref ConnectionCounters counters, LatencyHistogram histogram, LatencyHistogram? uncorrected)
    {
        ref var slot = ref _slots[index];
        var serverStream = _kind == Scenarios.GrpcCallKind.ServerStreaming;
        if (serverStream && slot.GrpcStatus != 0 && measuring)
        {
            slot.Malformed = true;
            Streamed(index, measuring: true, now, ref counters, histogram, uncorrected);
        }
        else if (_kind == Scenarios.GrpcCallKind.PingPong && slot.InFlight)
        {
            slot.Malformed = true;
            RoundTrip(index, now, ref counters, histogram, uncorrected);
        }

        if (_grpc && (slot.Measured || (serverStream && measuring)))
        {
            counters.Grpc[Protocols.Grpc.GrpcStatus.Slot(slot.GrpcStatus)]++;
        }

        Free(ref slot);
    }

    /// <summary>The stream will not be answered (reset, or above a GOAWAY's last stream): lost, when measured and a request of it is in flight.</summary>
    public void Lose(int index, ref ConnectionCounters counters, bool unfinished = false)
    {
        ref var slot = ref _slots[index];
        if (slot.Measured && slot.InFlight)
        {
            ref var count = ref unfinished ? ref counters.Unfinished : ref counters.Lost;
            count++;
        }

        Free(ref slot);
    }

    /// <summary>
    /// Forgets the streams above a GOAWAY's last stream: the server did not process them (RFC 9113,
    /// 6.8), so they were not requests it served or failed; uncounted from the sent, they are
    /// replaced on the next connection. Servers recycle connections this way (nginx after
    /// keepalive_requests), so it is not an error.
    /// </summary>
    public void ForgetAbove(int lastStream, ref ConnectionCounters counters)
    {
        for (var i = 0; i < _slots.Length; i++)
        {
            ref var slot = ref _slots[i];
            if (slot.Id != 0 && slot.Id > lastStream)
            {
                counters.Sent -= slot.Measured && slot.InFlight ? 1 : 0;
                Free(ref slot);
            }
        }
    }

    /// <summary>Loses every stream above <paramref name="lastStream"/> (all of them with -1).</summary>
    public void LoseAbove(int lastStream, ref ConnectionCounters counters, bool unfinished = false)
    {
        for (var i = 0; i < _slots.Length; i++)
        {
            if (_slots[i].Id != 0 && _slots[i].Id > lastStream)
            {
                Lose(i, ref counters, unfinished);
            }
        }
    }
}

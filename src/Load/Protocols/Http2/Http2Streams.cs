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
    private readonly Http2StreamSlot[] _slots;
    private readonly byte[]?[] _bodies;
    private int _lastFound;

    /// <param name="grpc">gRPC calls: good only with <c>grpc-status: 0</c>, each counted by its status.</param>
    public Http2Streams(int capacity, IResponseValidator? validator, bool grpc = false)
    {
        _validator = validator;
        _grpc = grpc;
        _slots = new Http2StreamSlot[capacity];
        _bodies = new byte[]?[capacity];
    }

    public int Capacity => _slots.Length;

    /// <summary>Requests sent and not yet answered.</summary>
    public int Outstanding { get; private set; }

    public ref Http2StreamSlot this[int index] => ref _slots[index];

    public void Clear()
    {
        Array.Clear(_slots);
        Outstanding = 0;
    }

    /// <summary>Takes a free slot for a new stream. Call only with fewer than <see cref="Capacity"/> outstanding.</summary>
    public void Open(int stream, long timedFrom, long sentAt, bool measured)
    {
        var index = 0;
        while (_slots[index].Id != 0)
        {
            index++;
        }

        _slots[index] = new Http2StreamSlot { Id = stream, Measured = measured, TimedFrom = timedFrom, SentAt = sentAt, ContentLength = -1, GrpcStatus = -1 };
        Outstanding++;
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
    public void Complete(int index, long now, ref ConnectionCounters counters, LatencyHistogram histogram, LatencyHistogram? uncorrected)
    {
        ref var slot = ref _slots[index];
        if (slot.Measured)
        {
            var good = slot.Status is >= 200 and < 400 && !slot.Malformed
                && (slot.ContentLength < 0 || slot.ContentLength == slot.BodyLength)
                && (_validator is not { } validator || validator.IsValid(_bodies[index] is { } body ? body.AsSpan(0, (int)slot.BodyLength) : default))
                && (!_grpc || slot.GrpcStatus == 0);
            if (_grpc)
            {
                counters.Grpc[Grpc.GrpcStatus.Slot(slot.GrpcStatus)]++;
            }

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
        else
        {
            counters.WarmupCompleted++;
        }

        slot.Id = 0;
        Outstanding--;
    }

    /// <summary>The stream will not be answered (reset, or above a GOAWAY's last stream): lost, when measured.</summary>
    public void Lose(int index, ref ConnectionCounters counters, bool unfinished = false)
    {
        ref var slot = ref _slots[index];
        if (slot.Measured)
        {
            ref var count = ref unfinished ? ref counters.Unfinished : ref counters.Lost;
            count++;
        }

        slot.Id = 0;
        Outstanding--;
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
                counters.Sent -= slot.Measured ? 1 : 0;
                slot.Id = 0;
                Outstanding--;
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

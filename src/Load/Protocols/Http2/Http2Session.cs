using System.Buffers.Binary;
using System.Globalization;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http2;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios;

namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// One HTTP/2 connection's protocol state as the load drives it, apart from its socket: the
/// frames read are parsed in place, every header block decoded (so HPACK's dynamic table stays in
/// step), each stream's response checked (status, content-length, body) and counted when it ends;
/// SETTINGS and PING are acknowledged, flow-control windows widened, RST_STREAM and GOAWAY obeyed.
/// What the client has to send (requests, acknowledgements, window updates) collects in a buffer
/// the connection flushes. Nothing is allocated per request or per frame.
/// </summary>
internal sealed class Http2Session
{
    /// <summary>The largest header block (HEADERS and its CONTINUATIONs) accepted: a bound on what a server can make the client hold.</summary>
    public const int MaxHeaderBlock = 64 * 1024;

    private const int ReceiveBufferSize = 64 * 1024;

    /// <summary>The longest gRPC answer message a stream accepts: gRPC's clients' default receive limit (4 MiB).</summary>
    private const int MaxAnswerMessage = 4 * 1024 * 1024;

    /// <summary>Room kept free in the send buffer for one more control frame; below it, reading stops until the connection flushes.</summary>
    private const int ControlRoom = 64;

    private readonly Http2RequestFrames _requests;
    private readonly HpackDecoder _decoder = new();
    private readonly Http2Streams _streams;
    private readonly byte[] _headerBlock = new byte[MaxHeaderBlock];
    private readonly byte[] _receive = new byte[ReceiveBufferSize];
    private readonly byte[] _send;
    private int _held;
    private int _parsed;
    private int _sendStart;
    private int _sendLength;
    private int _headerLength;
    private int _headerStream;
    private bool _headerEndStream;
    private int _nextId;
    private int _limit;
    private int _connectionUnacknowledged;
    /// <summary><see cref="Answers"/> when the connection started: none since means the server answered nothing on it.</summary>
    private long _answersAtStart;

    /// <summary>What the connection's flow-control window lets this client send in DATA (request bodies) before the server widens it.</summary>
    private long _sendWindow;

    /// <summary>The window each new stream starts with for this client's DATA: the server's SETTINGS_INITIAL_WINDOW_SIZE.</summary>
    private long _streamWindow;

    /// <summary>gRPC ping-pong streams: each answered message is a round trip, and the stream's next message follows.</summary>
    private readonly bool _pingPong;

    /// <summary>gRPC server streams: each message is counted as it comes, and the streams are cancelled when the load stops.</summary>
    private readonly bool _serverStreams;

    /// <summary>A ping-pong stream's next message waits for a window or room to write it.</summary>
    private bool _due;

    /// <summary>
    /// When the server's flow-control window began to hold back a request or message
    /// (<see cref="ConnectionCounters.WindowWaitTicks"/>); 0: it holds none.
    /// </summary>
    private long _windowHeldSince;

    /// <param name="request">The request's header blocks (<see cref="Http2RequestBlock"/>).</param>
    /// <param name="streams">Requests in flight at most (h2load's -m).</param>
    public Http2Session(Http2RequestBlocks request, int streams, IResponseValidator? validator)
    {
        _requests = new Http2RequestFrames(request);
        _streams = new Http2Streams(streams, validator, request.Grpc, request.Kind);
        _pingPong = request.Kind == Scenarios.GrpcCallKind.PingPong;
        _serverStreams = request.Kind == Scenarios.GrpcCallKind.ServerStreaming;
        _send = new byte[Math.Max(16 * 1024, (streams * (_requests.MaxLength + 16)) + 1024)];
        _limit = streams;
    }

    /// <summary>Requests sent and not yet answered (ping-pong: streams open).</summary>
    public int Outstanding => _streams.Outstanding;

    /// <summary>
    /// Whether the load is in its measured window now: a ping-pong stream's next message, sent
    /// while parsing, is measured by it. Set by the engine before <see cref="Process"/>.
    /// </summary>
    public bool Measuring { get; set; }

    /// <summary>
    /// The load is stopping: a ping-pong stream sends no further message once its last is answered.
    /// Set by the engine before <see cref="Process"/>.
    /// </summary>
    public bool Stopping { get; set; }

    /// <summary>Answers received since the session was made (responses, and ping-pong round trips): what the engines' timeouts count progress by.</summary>
    public long Answers { get; private set; }

    /// <summary>The server sent GOAWAY: no new stream on this connection; it ends once the last is answered.</summary>
    public bool GoingAway { get; private set; }

    /// <summary>
    /// The server sent GOAWAY before it answered any stream of this connection: it refused the connection, which is
    /// counted as a failed connect and retried after a pause, not reopened at once (thousands of reconnects a second).
    /// </summary>
    public bool Refused => GoingAway && Answers == _answersAtStart;

    /// <summary>The GOAWAY received, with its code ("HTTP/2 GOAWAY (NO_ERROR)"); null before one.</summary>
    public string? GoAwayCause { get; private set; }

    /// <summary>
    /// Whether another request may go now: a free stream under the server's limit, the connection
    /// not going away, ids left, room to write it, and room in the connection's window for its
    /// body.
    /// </summary>
    public bool CanOpen =>
        _streams.Occupied < _limit && !GoingAway && _nextId > 0 && _sendLength + _requests.MaxLength <= _send.Length && _sendWindow >= _requests.BodyLength;

    /// <summary>Why the connection failed (a protocol error of the server), or why the server sent GOAWAY with an error; null otherwise.</summary>
    public string? Error { get; private set; }

    /// <summary>Where the next read goes.</summary>
    public Memory<byte> ReceiveSpace => _receive.AsMemory(_held);

    /// <summary>What is to be sent, in order.</summary>
    public ReadOnlyMemory<byte> Pending => _send.AsMemory(_sendStart, _sendLength - _sendStart);

    /// <summary>A new connection: the preface, SETTINGS and the connection's window go first; no stream is open.</summary>
    public void Start()
    {
        _answersAtStart = Answers;
        GoAwayCause = null;
        _streams.Clear();
        _decoder.Reset();
        _requests.Reset();
        (_held, _parsed, _sendStart, _sendLength, _headerLength, _headerStream, _connectionUnacknowledged) = (0, 0, 0, 0, 0, 0, 0);
        (_nextId, _limit, GoingAway, Error, _sendWindow, _streamWindow, _due, _windowHeldSince) = (1, _streams.Capacity, false, null,
            Http2Settings.DefaultWindow, Http2Settings.DefaultWindow, false, 0);
        Http2Frame.Preface.CopyTo(_send);
        _sendLength = Http2Frame.Preface.Length;
        _sendLength += Http2Settings.WriteClientSettings(_send.AsSpan(_sendLength));
        _sendLength += Http2Settings.WriteWindowUpdate(_send.AsSpan(_sendLength), 0, Http2Settings.ClientWindow - Http2Settings.DefaultWindow);
    }

    /// <summary>A PING for the server to answer (its payload is not checked).</summary>
    public void Ping() => _sendLength += Http2Frame.Write(_send.AsSpan(_sendLength), Http2FrameType.Ping, 0, 0, "benchmks"u8);

    /// <summary>The pending bytes were sent.</summary>
    public void Sent() => (_sendStart, _sendLength) = (0, 0);

    /// <summary>The first <paramref name="count"/> pending bytes were sent (a non-blocking write that took part of them).</summary>
    public void Sent(int count)
    {
        _sendStart += count;
        if (_sendStart == _sendLength)
        {
            Sent();
        }
    }

    /// <summary>Opens a stream for one request: its HEADERS frame goes into the pending bytes. Call only when <see cref="CanOpen"/>.</summary>
    public void Open(long timedFrom, long sentAt, bool measured, ref ConnectionCounters counters)
    {
        _streams.Open(_nextId, timedFrom, sentAt, measured);
        _sendLength += _requests.Write(_send.AsSpan(_sendLength), _nextId);
        _sendWindow -= _requests.BodyLength;
        if (_pingPong)
        {
            _streams[_streams.Find(_nextId)].SendWindow = _streamWindow - _requests.BodyLength;
        }

        _nextId = _nextId >= int.MaxValue - 2 ? -1 : _nextId + 2;
        if (measured && !_serverStreams)
        {
            // A server stream is not a request of the window: its messages are counted as they come.
            counters.Sent++;
        }

        TrackWindow(sentAt, measured, ref counters);
    }

    /// <summary>
    /// Parses the frames <paramref name="received"/> more bytes complete and counts the responses they
    /// end. <see cref="Http2Outcome.Flush"/>: the pending bytes must go out before more can be
    /// parsed (call again with 0); <see cref="Http2Outcome.Failed"/>: a connection error, in <see cref="Error"/>.
    /// </summary>
    public Http2Outcome Process(int received, long now, ref ConnectionCounters counters, LatencyHistogram histogram, LatencyHistogram? uncorrected)
    {
        _held += received;
        SendDue(now, ref counters);
        CancelIfStopping();
        while (_held - _parsed >= Http2Frame.HeaderLength)
        {
            if (_sendLength > _send.Length - ControlRoom)
            {
                Compact();
                return Http2Outcome.Flush;
            }

            Http2Frame.TryRead(_receive.AsSpan(_parsed, Http2Frame.HeaderLength), out var frame);
            if (frame.Length > Http2Settings.DefaultMaxFrameSize)
            {
                return Fail(string.Create(CultureInfo.InvariantCulture,
                    $"FRAME_SIZE_ERROR: a {frame.Type} frame of {frame.Length:n0} bytes, over the 16,384 allowed"));
            }

            if (_held - _parsed < Http2Frame.HeaderLength + frame.Length)
            {
                break;
            }

            var payload = _receive.AsSpan(_parsed + Http2Frame.HeaderLength, frame.Length);
            _parsed += Http2Frame.HeaderLength + frame.Length;
            if (OnFrame(frame, payload, now, ref counters, histogram, uncorrected) is { } error)
            {
                return Fail(error);
            }
        }

        Compact();
        SendDue(now, ref counters);
        TrackWindow(now, Measuring, ref counters);
        return Http2Outcome.Continue;
    }

    /// <summary>
    /// Starts or ends an interval in which the server's flow-control window holds back what this
    /// connection would send, and adds an ended one that falls in the window to
    /// <see cref="ConnectionCounters.WindowWaitTicks"/>: called where the window or the free
    /// streams change (a request opened, frames parsed), so it costs a few comparisons each time.
    /// </summary>
    private void TrackWindow(long now, bool measured, ref ConnectionCounters counters)
    {
        var held = WindowHolds();
        if (held == (_windowHeldSince != 0))
        {
            return;
        }

        if (held)
        {
            _windowHeldSince = now;
            return;
        }

        counters.WindowWaitTicks += measured ? now - _windowHeldSince : 0;
        _windowHeldSince = 0;
    }

    /// <summary>
    /// Whether only the server's flow-control window keeps a request or message from going: a
    /// stream is free and the connection's window is smaller than a request body, or a ping-pong
    /// stream's next message waits for its stream's window or the connection's.
    /// </summary>
    private bool WindowHolds()
    {
        var body = _requests.BodyLength;
        if (body == 0 || GoingAway || _nextId <= 0)
        {
            return false;
        }

        if (_streams.Occupied < _limit && _sendWindow < body)
        {
            return true;
        }

        for (var i = 0; _due && i < _streams.Capacity; i++)
        {
            if (_streams[i].Id != 0 && _streams[i].Due && (_streams[i].SendWindow < body || _sendWindow < body))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// The load is stopping: server streams would send for ever, so each is cancelled (RST_STREAM
    /// CANCEL) and its slot freed, as far as the buffer has room.
    /// </summary>
    private void CancelIfStopping()
    {
        Span<byte> cancel = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32BigEndian(cancel, 0x8);
        for (var i = 0; _serverStreams && Stopping && i < _streams.Capacity; i++)
        {
            if (_streams[i].Id != 0 && _sendLength + Http2Frame.HeaderLength + 4 <= _send.Length - ControlRoom)
            {
                _sendLength += Http2Frame.Write(_send.AsSpan(_sendLength), Http2FrameType.RstStream, 0, _streams[i].Id, cancel);
                _streams.Cancel(i);
            }
        }
    }

    /// <summary>Sends the ping-pong messages that waited for a window or for room, as far as the windows and the buffer allow now.</summary>
    private void SendDue(long now, ref ConnectionCounters counters)
    {
        if (!_due)
        {
            return;
        }

        _due = false;
        for (var i = 0; i < _streams.Capacity; i++)
        {
            if (_streams[i].Id != 0 && _streams[i].Due)
            {
                SendNext(i, now, ref counters);
            }
        }
    }

    /// <summary>A ping-pong stream's next message: sent now, or marked due while a window or the buffer lacks room for it.</summary>
    private void SendNext(int index, long now, ref ConnectionCounters counters)
    {
        ref var slot = ref _streams[index];
        var body = _requests.BodyLength;
        if (Stopping)
        {
            _streams.Withdraw(index);
            return;
        }

        _streams.Expect(index);
        if (slot.SendWindow < body || _sendWindow < body || _sendLength + _requests.BodyFrameLength > _send.Length - ControlRoom)
        {
            // Not sent, so not measured: a connection lost meanwhile loses nothing it sent.
            (slot.Due, slot.Measured, _due) = (true, false, true);
            return;
        }

        _sendLength += _requests.WriteBody(_send.AsSpan(_sendLength), slot.Id);
        slot.SendWindow -= body;
        _sendWindow -= body;
        (slot.Due, slot.Measured, slot.TimedFrom, slot.SentAt) = (false, Measuring, now, now);
        if (Measuring)
        {
            counters.Sent++;
        }
    }

    /// <summary>Moves what is not yet parsed (a frame not yet whole, or frames waiting on a flush) to the front of the buffer.</summary>
    private void Compact()
    {
        if (_parsed > 0)
        {
            Buffer.BlockCopy(_receive, _parsed, _receive, 0, _held - _parsed);
            _held -= _parsed;
            _parsed = 0;
        }
    }

    /// <summary>The connection failed or closed: the requests still in flight are lost (counted when measured).</summary>
    /// <param name="unfinished">The run's hard stop: counted as unfinished rather than lost.</param>
    public void Abandon(ref ConnectionCounters counters, bool unfinished = false) => _streams.LoseAbove(-1, ref counters, unfinished);

    private Http2Outcome Fail(string error)
    {
        Error = "HTTP/2 " + error;
        return Http2Outcome.Failed;
    }

    private string? OnFrame(Http2Frame frame, ReadOnlySpan<byte> payload, long now, ref ConnectionCounters counters, LatencyHistogram histogram,
        LatencyHistogram? uncorrected)
    {
        if (_headerStream != 0 && (frame.Type != Http2FrameType.Continuation || frame.Stream != _headerStream))
        {
            return $"PROTOCOL_ERROR: a {frame.Type} frame inside the header block of stream {_headerStream}";
        }

        switch (frame.Type)
        {
            case Http2FrameType.Data:
                return OnData(frame, payload, now, ref counters, histogram, uncorrected);
            case Http2FrameType.Headers:
            case Http2FrameType.Continuation:
                return OnHeaders(frame, payload, now, ref counters, histogram, uncorrected);
            case Http2FrameType.Settings:
                return OnSettings(frame, payload);
            case Http2FrameType.Ping:
                if (frame.Length != 8 || frame.Stream != 0)
                {
                    return "FRAME_SIZE_ERROR: a PING that is not 8 bytes on stream 0";
                }

                if (!frame.Has(Http2Frame.Ack))
                {
                    _sendLength += Http2Frame.Write(_send.AsSpan(_sendLength), Http2FrameType.Ping, Http2Frame.Ack, 0, payload);
                }

                return null;
            case Http2FrameType.RstStream:
                return frame.Length != 4 || frame.Stream == 0
                    ? "FRAME_SIZE_ERROR: a RST_STREAM that is not 4 bytes on a stream"
                    : OnReset(frame.Stream, BinaryPrimitives.ReadUInt32BigEndian(payload), ref counters);
            case Http2FrameType.GoAway:
                return frame.Length < 8 || frame.Stream != 0
                    ? "FRAME_SIZE_ERROR: a GOAWAY shorter than 8 bytes"
                    : OnGoAway(BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue, BinaryPrimitives.ReadUInt32BigEndian(payload[4..]), ref counters);
            case Http2FrameType.WindowUpdate:
                return OnWindowUpdate(frame, payload);
            case Http2FrameType.PushPromise:
                return "PROTOCOL_ERROR: a PUSH_PROMISE, though this client disabled push";
            default:
                // PRIORITY and frame types this client does not know are ignored (RFC 9113, 4.1 and 5.5).
                return null;
        }
    }

    private string? OnData(Http2Frame frame, ReadOnlySpan<byte> payload, long now, ref ConnectionCounters counters, LatencyHistogram histogram,
        LatencyHistogram? uncorrected)
    {
        if (frame.Stream == 0 || frame.Stream % 2 == 0 || frame.Stream >= NextIdOrMax)
        {
            return $"PROTOCOL_ERROR: DATA on stream {frame.Stream}, which this client did not open";
        }

        // Flow control counts the whole payload, padding too; the connection's window is widened by half of it at a time.
        _connectionUnacknowledged += frame.Length;
        if (_connectionUnacknowledged >= Http2Settings.ClientWindow / 2)
        {
            _sendLength += Http2Settings.WriteWindowUpdate(_send.AsSpan(_sendLength), 0, _connectionUnacknowledged);
            _connectionUnacknowledged = 0;
        }

        var index = _streams.Find(frame.Stream);
        if (index < 0)
        {
            // A stream already ended or reset: its data is dropped (it still counted against the window).
            return null;
        }

        ref var slot = ref _streams[index];
        if (frame.Has(Http2Frame.Padded))
        {
            if (payload.IsEmpty || payload[0] >= payload.Length)
            {
                return "PROTOCOL_ERROR: DATA padding longer than its frame";
            }

            payload = payload[1..^payload[0]];
        }

        if (_pingPong || _serverStreams)
        {
            if (Messages(index, payload, now, ref counters, histogram, uncorrected) is { } tooLong)
            {
                return tooLong;
            }
        }
        else
        {
            if (_streams.Grpc)
            {
                Prefix(ref slot, payload);
            }

            _streams.Body(index, payload);
        }

        slot.Unacknowledged += frame.Length;
        if (slot.Unacknowledged >= Http2Settings.ClientWindow / 2 && !frame.Has(Http2Frame.EndStream))
        {
            _sendLength += Http2Settings.WriteWindowUpdate(_send.AsSpan(_sendLength), slot.Id, slot.Unacknowledged);
            slot.Unacknowledged = 0;
        }

        if (frame.Has(Http2Frame.EndStream))
        {
            _streams.Complete(index, now, ref counters, histogram, uncorrected, Measuring);
            Answers++;
        }

        return null;
    }

    /// <summary>
    /// A gRPC stream's answer bytes: each message (its 5-byte prefix and the length it declares)
    /// ends a ping-pong round trip, and the stream's next message follows it, or is a server
    /// stream's next message. A message declared longer than gRPC's clients accept fails the
    /// connection: the stream's messages could not be told apart after it.
    /// </summary>
    private string? Messages(int index, ReadOnlySpan<byte> payload, long now, ref ConnectionCounters counters, LatencyHistogram histogram,
        LatencyHistogram? uncorrected)
    {
        while (!payload.IsEmpty)
        {
            ref var slot = ref _streams[index];
            var needed = slot.BodyLength < Grpc.GrpcCall.PrefixLength
                ? Grpc.GrpcCall.PrefixLength - slot.BodyLength
                : Grpc.GrpcCall.PrefixLength + slot.Declared - slot.BodyLength;
            var chunk = payload[..(int)Math.Min(needed, payload.Length)];
            Prefix(ref slot, chunk);
            if (slot.BodyLength + chunk.Length >= Grpc.GrpcCall.PrefixLength && slot.Declared > MaxAnswerMessage)
            {
                return string.Create(CultureInfo.InvariantCulture,
                    $"a gRPC message of {slot.Declared:n0} bytes declared on stream {slot.Id}, over the {MaxAnswerMessage:n0} gRPC's clients accept");
            }

            _streams.Body(index, chunk);
            payload = payload[chunk.Length..];
            if (slot.BodyLength >= Grpc.GrpcCall.PrefixLength && slot.BodyLength == Grpc.GrpcCall.PrefixLength + slot.Declared)
            {
                Answers++;
                if (_serverStreams)
                {
                    _streams.Streamed(index, Measuring, now, ref counters, histogram, uncorrected);
                    continue;
                }

                _streams.RoundTrip(index, now, ref counters, histogram, uncorrected);
                SendNext(index, now, ref counters);
            }
        }

        return null;
    }

    /// <summary>
    /// Reads what of a message's 5-byte prefix <paramref name="bytes"/> holds (a compressed flag,
    /// then the length big-endian), before they are added to the body.
    /// </summary>
    private static void Prefix(ref Http2StreamSlot slot, ReadOnlySpan<byte> bytes)
    {
        for (var i = 0; i < bytes.Length && slot.BodyLength + i < Grpc.GrpcCall.PrefixLength; i++)
        {
            if (slot.BodyLength + i == 0)
            {
                (slot.Declared, slot.Compressed) = (0, bytes[i] != 0);
            }
            else
            {
                slot.Declared = (slot.Declared << 8) | bytes[i];
            }
        }
    }

    private string? OnHeaders(Http2Frame frame, ReadOnlySpan<byte> payload, long now, ref ConnectionCounters counters, LatencyHistogram histogram,
        LatencyHistogram? uncorrected)
    {
        if (frame.Type == Http2FrameType.Headers)
        {
            if (frame.Stream == 0 || frame.Stream % 2 == 0 || frame.Stream >= NextIdOrMax)
            {
                return $"PROTOCOL_ERROR: HEADERS on stream {frame.Stream}, which this client did not open";
            }

            if (!Http2Frame.TryFragment(frame, payload, out payload))
            {
                return "PROTOCOL_ERROR: HEADERS padding or priority longer than its frame";
            }

            (_headerStream, _headerLength, _headerEndStream) = (frame.Stream, 0, frame.Has(Http2Frame.EndStream));
        }
        else if (_headerStream == 0)
        {
            return "PROTOCOL_ERROR: a CONTINUATION with no header block open";
        }

        if (_headerLength + payload.Length > MaxHeaderBlock)
        {
            return $"a header block over {MaxHeaderBlock / 1024} KB on stream {_headerStream} (this client's limit)";
        }

        payload.CopyTo(_headerBlock.AsSpan(_headerLength));
        _headerLength += payload.Length;
        if (!frame.Has(Http2Frame.EndHeaders))
        {
            return null;
        }

        var stream = _headerStream;
        _headerStream = 0;
        if (!_decoder.Decode(_headerBlock.AsSpan(0, _headerLength), out var status, out var contentLength, out var grpcStatus))
        {
            return $"COMPRESSION_ERROR: the header block of stream {stream} does not decode";
        }

        var index = _streams.Find(stream);
        if (index < 0)
        {
            return null;
        }

        ref var slot = ref _streams[index];
        if (grpcStatus >= 0)
        {
            // A gRPC call's status: in its trailers, or in a trailers-only answer's one block.
            slot.GrpcStatus = grpcStatus;
        }

        if (slot.Status == 0 && status is >= 100 and < 200 && !_headerEndStream)
        {
            // An interim response (100 Continue, 103 Early Hints): the final one follows.
            return null;
        }

        if (slot.Status == 0)
        {
            (slot.Status, slot.ContentLength) = (status, contentLength);
            slot.Malformed |= status == 0;
        }

        if (_headerEndStream)
        {
            _streams.Complete(index, now, ref counters, histogram, uncorrected, Measuring);
            Answers++;
        }

        return null;
    }

    private string? OnSettings(Http2Frame frame, ReadOnlySpan<byte> payload)
    {
        if (frame.Stream != 0 || (frame.Has(Http2Frame.Ack) ? frame.Length != 0 : frame.Length % 6 != 0))
        {
            return "FRAME_SIZE_ERROR: a SETTINGS frame of a length it cannot have";
        }

        if (frame.Has(Http2Frame.Ack))
        {
            return null;
        }

        for (var at = 0; at < payload.Length; at += 6)
        {
            var value = BinaryPrimitives.ReadUInt32BigEndian(payload[(at + 2)..]);
            if (BinaryPrimitives.ReadUInt16BigEndian(payload[at..]) == Http2Settings.HeaderTableSize)
            {
                _requests.TableSize(value);
            }
            else if (BinaryPrimitives.ReadUInt16BigEndian(payload[at..]) == Http2Settings.InitialWindowSize)
            {
                if (value < _requests.BodyLength)
                {
                    return string.Create(CultureInfo.InvariantCulture,
                        $"the server's stream window ({value:n0} bytes) is smaller than the request body ({_requests.BodyLength:n0} bytes), " +
                        $"which this load sends in one DATA frame");
                }

                // A new initial window moves every open stream's window by the difference (RFC 9113, 6.9.2).
                for (var i = 0; _pingPong && i < _streams.Capacity; i++)
                {
                    _streams[i].SendWindow += value - _streamWindow;
                }

                (_streamWindow, _due) = (value, _pingPong);
            }
            else if (BinaryPrimitives.ReadUInt16BigEndian(payload[at..]) == Http2Settings.MaxConcurrentStreams)
            {
                _limit = (int)Math.Min(_streams.Capacity, value);
                if (_limit == 0)
                {
                    return "the server allows no concurrent stream (SETTINGS_MAX_CONCURRENT_STREAMS 0)";
                }
            }
        }

        _sendLength += Http2Frame.Write(_send.AsSpan(_sendLength), Http2FrameType.Settings, Http2Frame.Ack, 0, default);
        return null;
    }

    /// <summary>
    /// The server widens a window: the connection's is what request bodies take from (a stream's
    /// own starts at the server's SETTINGS and a body fits it).
    /// </summary>
    private string? OnWindowUpdate(Http2Frame frame, ReadOnlySpan<byte> payload)
    {
        if (frame.Length != 4)
        {
            return "FRAME_SIZE_ERROR: a WINDOW_UPDATE that is not 4 bytes";
        }

        var increment = BinaryPrimitives.ReadInt32BigEndian(payload) & int.MaxValue;
        if (frame.Stream == 0)
        {
            _sendWindow += increment;
            if (_sendWindow > int.MaxValue)
            {
                return "FLOW_CONTROL_ERROR: the server widened the connection's window past 2^31 - 1";
            }

            _due |= _pingPong;
        }
        else if (_pingPong && _streams.Find(frame.Stream) is >= 0 and var index)
        {
            _streams[index].SendWindow += increment;
            _due = true;
        }

        return null;
    }

    private string? OnReset(int stream, uint code, ref ConnectionCounters counters)
    {
        var index = _streams.Find(stream);
        if (index >= 0)
        {
            Error ??= $"HTTP/2 stream reset by the server: {Http2Settings.ErrorName(code)}";
            _streams.Lose(index, ref counters);
        }

        return null;
    }

    private string? OnGoAway(int lastStream, uint code, ref ConnectionCounters counters)
    {
        GoingAway = true;
        GoAwayCause = $"HTTP/2 GOAWAY ({Http2Settings.ErrorName(code)})";
        if (code != 0)
        {
            Error ??= $"HTTP/2 GOAWAY from the server: {Http2Settings.ErrorName(code)}";
        }

        // Streams above the last one the server processed never will be: they go again on a new connection.
        _streams.ForgetAbove(lastStream, ref counters);

        return null;
    }

    private int NextIdOrMax => _nextId < 0 ? int.MaxValue : _nextId;
}

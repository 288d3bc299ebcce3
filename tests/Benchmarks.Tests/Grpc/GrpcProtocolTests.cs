using System.Buffers.Binary;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Grpc;
using Benchmarks.Load.Protocols.Http2;
using Benchmarks.Load.Statistics;
using Benchmarks.Scenarios;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Grpc;

/// <summary>
/// A gRPC call as the HTTP/2 load makes it: a POST whose HEADERS leave the stream open and whose
/// one DATA frame (the length-prefixed message) ends it; the answer counted by the grpc-status of
/// its trailers or of a trailers-only block; request bodies kept within the connection's window.
/// </summary>
public sealed class GrpcProtocolTests
{
    private static readonly Uri s_method = new("http://127.0.0.1:8080/grpc.testing.BenchmarkService/UnaryCall");

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_call_is_a_post_with_grpc_headers_and_one_data_frame_that_ends_the_stream()
    {
        var options = new HttpLoadOptions { Url = s_method, Http2 = true, Grpc = new GrpcCall([0x10, 0x0a]) };
        var blocks = Http2RequestBlock.Build(options);
        Assert.True(blocks.Grpc);
        Assert.Equal([0, 0, 0, 0, 2, 0x10, 0x0a], blocks.Body);

        // :method POST (static 3), :scheme http, then :path, :authority, content-type (static 31) and te, indexed.
        Assert.Equal(0x83, blocks.First[0]);
        Assert.Contains("application/grpc"u8.ToArray(), Slices(blocks.First, 16));
        Assert.Contains("trailers"u8.ToArray(), Slices(blocks.First, 8));

        var frames = new Http2RequestFrames(blocks);
        var buffer = new byte[frames.MaxLength];
        foreach (var stream in (int[])[1, 3])
        {
            var length = frames.Write(buffer, stream);
            Assert.True(Http2Frame.TryRead(buffer, out var headers));
            Assert.Equal((Http2FrameType.Headers, stream), (headers.Type, headers.Stream));
            Assert.True(headers.Has(Http2Frame.EndHeaders) && !headers.Has(Http2Frame.EndStream));
            var at = Http2Frame.HeaderLength + headers.Length;
            Assert.True(Http2Frame.TryRead(buffer.AsSpan(at), out var data));
            Assert.Equal((Http2FrameType.Data, stream, 7, Http2Frame.EndStream), (data.Type, data.Stream, data.Length, data.Flags));
            Assert.Equal(blocks.Body, buffer[(at + Http2Frame.HeaderLength)..length]);
        }

        Assert.Equal(7, frames.BodyLength);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_client_stream_sends_its_messages_in_the_one_data_frame_that_ends_it_and_is_answered_once()
    {
        var call = new GrpcCall([0x10, 0x0a]) { Kind = GrpcCallKind.ClientStreaming, Messages = 3 };
        var blocks = Http2RequestBlock.Build(new HttpLoadOptions { Url = s_method, Http2 = true, Grpc = call });
        Assert.Equal([0, 0, 0, 0, 2, 0x10, 0x0a, 0, 0, 0, 0, 2, 0x10, 0x0a, 0, 0, 0, 0, 2, 0x10, 0x0a], blocks.Body);
        var frames = new Http2RequestFrames(blocks);
        var buffer = new byte[frames.MaxLength];
        var length = frames.Write(buffer, 1);
        Assert.True(Http2Frame.TryRead(buffer, out var headers));
        Assert.True(Http2Frame.TryRead(buffer.AsSpan(Http2Frame.HeaderLength + headers.Length), out var data));
        Assert.Equal((Http2FrameType.Data, 21, Http2Frame.EndStream), (data.Type, data.Length, data.Flags));
        Assert.Equal(length, Http2Frame.HeaderLength + headers.Length + Http2Frame.HeaderLength + 21);
        Assert.True(GrpcCall.AnsweredOnce(GrpcCallKind.ClientStreaming) && GrpcCall.AnsweredOnce(GrpcCallKind.Unary));
        Assert.False(GrpcCall.AnsweredOnce(GrpcCallKind.PingPong) || GrpcCall.AnsweredOnce(GrpcCallKind.ServerStreaming));
        Assert.Equal("client-streaming", GrpcCall.NameOf(GrpcCallKind.ClientStreaming));
        Assert.NotEqual(call, call with { Messages = 2 });

        // What does not fit one DATA frame, or no message at all, is refused in one line.
        Assert.Contains("sends 1 to 2,340 of them here", Assert.Throws<ArgumentException>(() => call with { Messages = 2_341 }).Message,
            StringComparison.Ordinal);
        Assert.Throws<ArgumentException>(() => call with { Messages = 0 });
        Assert.Equal(2_340, (call with { Messages = 2_340 }).Framed().Length / 7);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_request_message_is_read_from_hex_or_a_file_and_one_that_cannot_be_sent_is_refused_in_one_line()
    {
        Assert.Equal(new GrpcCall([0x10, 0x0a]), GrpcCall.Parse("hex:100A"));
        Assert.Empty(GrpcCall.Parse("hex:").Message);
        var file = Path.Combine(TestPaths.NewTempDirectory(), "request.bin");
        File.WriteAllBytes(file, [1, 2, 3]);
        Assert.Equal([1, 2, 3], GrpcCall.Parse(file).Message);
        Assert.Equal("hex:100a", GrpcCall.Parse("hex:100a").ToHex());

        Assert.Contains("not a message in hexadecimal", Assert.Throws<ArgumentException>(() => GrpcCall.Parse("hex:1")).Message, StringComparison.Ordinal);
        Assert.Contains("no file", Assert.Throws<ArgumentException>(() => GrpcCall.Parse("/nowhere/request.bin")).Message, StringComparison.Ordinal);
        File.WriteAllBytes(file, new byte[GrpcCall.MaxMessageLength + 1]);
        Assert.Contains("at most 16,379", Assert.Throws<ArgumentException>(() => GrpcCall.Parse(file)).Message, StringComparison.Ordinal);
        Assert.Contains("gRPC runs over HTTP/2",
            Assert.Throws<ArgumentException>(() => Benchmarks.Load.Engines.HttpLoadGenerator.RunAsync(
                new HttpLoadOptions { Url = s_method, Grpc = new GrpcCall([]) }, null, CancellationToken.None).GetAwaiter().GetResult()).Message,
            StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Answers_are_good_only_with_grpc_status_0_and_every_answer_is_counted_by_its_status()
    {
        var expected = new byte[] { 0, 0, 0, 0, 2, 0x0a, 0x00 };
        var session = Started(new GrpcCall([]), 4, new Exactly(expected));
        var counters = default(ConnectionCounters);
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 4; i++)
        {
            Assert.True(session.CanOpen);
            session.Open(0, 0, measured: true, ref counters);
        }

        // Stream 1: 200, the message, trailers with grpc-status 0. Stream 3: the same with status 14.
        // Stream 5: a trailers-only answer, UNIMPLEMENTED. Stream 7: trailers without grpc-status.
        Feed(session, ref counters, histogram,
        [
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 1, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 1, expected),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 1, Literal("grpc-status", "0")),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 3, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 3, expected),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 3,
                [.. Literal("grpc-status", "14"), .. Literal("grpc-message", "going away")]),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 5, [0x88, .. Literal("grpc-status", "12")]),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 7, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 7, expected),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 7, Literal("x-other", "1")),
        ]);

        Assert.Equal((4, 1, 3), (counters.Sent, counters.Good, counters.Bad));
        Assert.Equal((1, 1, 1, 1), (counters.Grpc[0], counters.Grpc[14], counters.Grpc[12], counters.Grpc[GrpcStatus.Missing]));
        Assert.Equal(4, histogram.TotalCount);
        Assert.Equal(0, session.Outstanding);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Request_bodies_wait_for_the_connections_window_and_a_stream_window_smaller_than_one_body_fails_the_connection()
    {
        var message = new byte[GrpcCall.MaxMessageLength];
        var session = Started(new GrpcCall(message), 8, null);
        var counters = default(ConnectionCounters);
        var histogram = new LatencyHistogram();

        // 65,535 bytes of window: three 16,384-byte bodies fit, a fourth does not until the server widens it.
        for (var i = 0; i < 3; i++)
        {
            Assert.True(session.CanOpen);
            session.Open(0, 0, measured: true, ref counters);
            session.Sent();
        }

        Assert.False(session.CanOpen);
        Span<byte> increment = stackalloc byte[4];
        BinaryPrimitives.WriteInt32BigEndian(increment, 16_384);
        Feed(session, ref counters, histogram, Frame(Http2FrameType.WindowUpdate, 0, 3, increment.ToArray()));
        Assert.False(session.CanOpen);
        Feed(session, ref counters, histogram, Frame(Http2FrameType.WindowUpdate, 0, 0, increment.ToArray()));
        Assert.True(session.CanOpen);

        // SETTINGS_INITIAL_WINDOW_SIZE of 1,000: a body of 16,384 bytes can never go.
        byte[] settings = [0, 4, 0, 0, 0x03, 0xe8];
        var received = Frame(Http2FrameType.Settings, 0, 0, settings);
        received.CopyTo(session.ReceiveSpace.Span);
        Assert.Equal(Http2Outcome.Failed, session.Process(received.Length, 0, ref counters, histogram, null));
        Assert.Contains("stream window (1,000 bytes) is smaller than the request body (16,384 bytes)", session.Error, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_ping_pong_stream_counts_each_answered_message_and_sends_the_next_on_the_same_stream()
    {
        byte[] expected = [0, 0, 0, 0, 2, 0x0a, 0x00];
        var session = Started(new GrpcCall([0x10, 0x0a]) { Kind = GrpcCallKind.PingPong }, 2, new Exactly(expected));
        var counters = default(ConnectionCounters);
        var histogram = new LatencyHistogram();
        session.Open(0, 0, measured: true, ref counters);
        session.Open(0, 0, measured: true, ref counters);

        // The first message's DATA leaves the stream open.
        var opened = session.Pending.ToArray();
        Assert.True(Http2Frame.TryRead(opened, out var headers));
        Assert.True(Http2Frame.TryRead(opened.AsSpan(Http2Frame.HeaderLength + headers.Length), out var data));
        Assert.Equal((Http2FrameType.Data, 1, (byte)0), (data.Type, data.Stream, data.Flags));
        session.Sent();

        // Stream 1: its answer split across two DATA frames, then a second answer; stream 3: one answer,
        // then its trailers say OK while its next message is in flight (a bad round trip: the stream ended instead).
        Feed(session, ref counters, histogram,
        [
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 1, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 1, expected[..3]),
            .. Frame(Http2FrameType.Data, 0, 1, expected[3..]),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 3, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 3, expected),
        ]);
        Assert.Equal((4, 2, 0), (counters.Sent, counters.Good, counters.Bad));
        var next = session.Pending.ToArray();
        Assert.Equal(2 * (Http2Frame.HeaderLength + 7), next.Length);
        Assert.True(Http2Frame.TryRead(next, out var again));
        Assert.Equal((Http2FrameType.Data, 1, (byte)0, 7), (again.Type, again.Stream, again.Flags, again.Length));
        session.Sent();

        Feed(session, ref counters, histogram,
        [
            .. Frame(Http2FrameType.Data, 0, 1, expected),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 3, Literal("grpc-status", "0")),
        ]);
        Assert.Equal((5, 3, 1), (counters.Sent, counters.Good, counters.Bad));
        Assert.Equal(1, counters.Grpc[0]);
        Assert.Equal(1, session.Outstanding);
        Assert.Equal(4, histogram.TotalCount);

        // The run's end: stream 1's message in flight is unfinished, and Sent = Good + Bad + Lost + Unfinished.
        session.Abandon(ref counters, unfinished: true);
        Assert.Equal(counters.Sent, counters.Good + counters.Bad + counters.Lost + counters.Unfinished);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_ping_pong_message_waits_for_its_streams_window_and_goes_when_the_server_widens_it()
    {
        var message = new byte[GrpcCall.MaxMessageLength];
        byte[] answer = [0, 0, 0, 0, 0];
        var session = Started(new GrpcCall(message) { Kind = GrpcCallKind.PingPong }, 1, null);
        var counters = default(ConnectionCounters);
        var histogram = new LatencyHistogram();
        session.Open(0, 0, measured: true, ref counters);
        session.Sent();

        // 65,535 bytes a stream: three messages of 16,384 go, the fourth waits for a WINDOW_UPDATE of the stream.
        for (var i = 0; i < 3; i++)
        {
            Feed(session, ref counters, histogram,
                i == 0
                    ? [.. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 1, [0x88]), .. Frame(Http2FrameType.Data, 0, 1, answer)]
                    : Frame(Http2FrameType.Data, 0, 1, answer));
            Assert.Equal(i < 2 ? Http2Frame.HeaderLength + 16_384 : 0, session.Pending.Length);
            session.Sent();
        }

        // The connection's window was widened; the stream's was not.
        Span<byte> increment = stackalloc byte[4];
        BinaryPrimitives.WriteInt32BigEndian(increment, 65_536);
        Feed(session, ref counters, histogram, Frame(Http2FrameType.WindowUpdate, 0, 0, increment.ToArray()));
        Assert.Equal(0, session.Pending.Length);
        Feed(session, ref counters, histogram, Frame(Http2FrameType.WindowUpdate, 0, 1, increment.ToArray()));
        Assert.Equal(Http2Frame.HeaderLength + 16_384, session.Pending.Length);
        Assert.Equal((4, 3), (counters.Sent, counters.Good));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_server_stream_counts_every_message_as_it_comes_and_is_cancelled_when_the_load_stops()
    {
        byte[] expected = [0, 0, 0, 0, 2, 0x0a, 0x00];
        var session = Started(new GrpcCall([0x10, 0x0a]) { Kind = GrpcCallKind.ServerStreaming }, 1, new Exactly(expected));
        var counters = default(ConnectionCounters);
        var histogram = new LatencyHistogram();
        session.Open(0, 0, measured: true, ref counters);

        // One request: its DATA ends the client's side; the server's side goes on.
        var opened = session.Pending.ToArray();
        Assert.True(Http2Frame.TryRead(opened, out var headers));
        Assert.True(Http2Frame.TryRead(opened.AsSpan(Http2Frame.HeaderLength + headers.Length), out var data));
        Assert.True(data.Has(Http2Frame.EndStream));
        session.Sent();
        Assert.Equal(0, counters.Sent);

        // Three messages, the second across two frames: each counted as it comes, nothing sent back.
        Feed(session, ref counters, histogram,
        [
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 1, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 1, [.. expected, .. expected[..4]]),
            .. Frame(Http2FrameType.Data, 0, 1, [.. expected[4..], .. expected]),
        ]);
        Assert.Equal((3, 3, 0), (counters.Sent, counters.Good, counters.Bad));
        Assert.Equal(3, histogram.TotalCount);
        Assert.True(session.Pending.IsEmpty);
        Assert.Equal(1, session.Outstanding);

        // Stopping: the stream is cancelled, and what the server had already sent is dropped uncounted.
        session.Stopping = true;
        Feed(session, ref counters, histogram, Frame(Http2FrameType.Data, 0, 1, expected));
        Assert.Equal((3, 3, 0), (counters.Sent, counters.Good, counters.Bad));
        Assert.Equal(0, session.Outstanding);
        var cancel = session.Pending.ToArray();
        Assert.True(Http2Frame.TryRead(cancel, out var reset));
        Assert.Equal((Http2FrameType.RstStream, 1, 4), (reset.Type, reset.Stream, reset.Length));
        Assert.Equal(8u, BinaryPrimitives.ReadUInt32BigEndian(cancel.AsSpan(Http2Frame.HeaderLength)));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Hostile_answers_are_each_counted_with_their_cause_and_none_hangs()
    {
        var session = Started(new GrpcCall([]), 4, null);
        var counters = default(ConnectionCounters);
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 4; i++)
        {
            session.Open(0, 0, measured: true, ref counters);
        }

        // 1: the compressed flag, though no compression was agreed; 3: a message declared 10 bytes long that brings 3;
        // 5: a non-numeric grpc-status; 7: reset in the middle of its message.
        Feed(session, ref counters, histogram,
        [
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 1, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 1, [1, 0, 0, 0, 2, 0x0a, 0x00]),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 1, Literal("grpc-status", "0")),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 3, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 3, [0, 0, 0, 0, 10, 1, 2, 3]),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 3, Literal("grpc-status", "0")),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 5, [0x88]),
            .. Frame(Http2FrameType.Data, 0, 5, [0, 0, 0, 0, 0]),
            .. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, 5, Literal("grpc-status", "OK")),
        ]);
        byte[] reset = [.. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 7, [0x88]), .. Frame(Http2FrameType.Data, 0, 7, [0, 0, 0, 0, 9, 1]),
            .. Frame(Http2FrameType.RstStream, 0, 7, [0, 0, 0, 2])];
        reset.CopyTo(session.ReceiveSpace.Span);
        Assert.Equal(Http2Outcome.Continue, session.Process(reset.Length, 0, ref counters, histogram, null));
        Assert.Contains("stream reset by the server: INTERNAL_ERROR", session.Error, StringComparison.Ordinal);
        Assert.Equal((4, 0, 3, 1), (counters.Sent, counters.Good, counters.Bad, counters.Lost));
        Assert.Equal((1, 1, 1), (counters.Grpc[GrpcStatus.Compressed], counters.Grpc[GrpcStatus.BadLength], counters.Grpc[GrpcStatus.Missing]));
        Assert.Equal(0, session.Outstanding);
        Assert.Equal(["compressed", "bad-length"], GrpcStatus.Names.Skip(GrpcStatus.Compressed));

        // A stream's message declared past what gRPC's clients accept (4 MiB): the connection fails with that cause.
        var streams = Started(new GrpcCall([]) { Kind = GrpcCallKind.ServerStreaming }, 1, null);
        streams.Open(0, 0, measured: true, ref counters);
        byte[] huge = [.. Frame(Http2FrameType.Headers, Http2Frame.EndHeaders, 1, [0x88]), .. Frame(Http2FrameType.Data, 0, 1, [0, 0x10, 0, 0, 0])];
        huge.CopyTo(streams.ReceiveSpace.Span);
        Assert.Equal(Http2Outcome.Failed, streams.Process(huge.Length, 0, ref counters, histogram, null));
        Assert.Contains("a gRPC message of 268,435,456 bytes declared on stream 1", streams.Error, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_header_decoder_reads_grpc_status_and_gives_it_again_for_a_repeated_block()
    {
        var decoder = new HpackDecoder();
        byte[] trailers = [.. Literal("grpc-status", "13")];
        Assert.True(decoder.Decode(trailers, out var status, out _, out var grpcStatus));
        Assert.Equal((0, 13), (status, grpcStatus));
        Assert.True(decoder.Decode(trailers, out _, out _, out grpcStatus));
        Assert.Equal((13, 1L), (grpcStatus, decoder.Repeats));
        Assert.True(decoder.Decode([0x88], out status, out _, out grpcStatus));
        Assert.Equal((200, -1), (status, grpcStatus));
        Assert.True(decoder.Decode(Literal("grpc-status", "x1"), out _, out _, out grpcStatus));
        Assert.Equal(-1, grpcStatus);
        Assert.Equal((2, GrpcStatus.Missing, 16), (GrpcStatus.Slot(99), GrpcStatus.Slot(-1), GrpcStatus.Slot(16)));
    }

    /// <summary>A session for <paramref name="call"/>, started (its preface taken as sent) and measuring.</summary>
    private static Http2Session Started(GrpcCall call, int streams, IResponseValidator? validator)
    {
        var session = new Http2Session(Http2RequestBlock.Build(new HttpLoadOptions { Url = s_method, Http2 = true, Grpc = call }), streams,
            validator) { Measuring = true };
        session.Start();
        session.Sent();
        return session;
    }

    private static void Feed(Http2Session session, ref ConnectionCounters counters, LatencyHistogram histogram, byte[] bytes)
    {
        bytes.CopyTo(session.ReceiveSpace.Span);
        Assert.Equal(Http2Outcome.Continue, session.Process(bytes.Length, 0, ref counters, histogram, null));
        Assert.Null(session.Error);
    }

    private static byte[] Frame(Http2FrameType type, byte flags, int stream, byte[] payload)
    {
        var frame = new byte[Http2Frame.HeaderLength + payload.Length];
        new Http2Frame(payload.Length, type, flags, stream).Write(frame);
        payload.CopyTo(frame, Http2Frame.HeaderLength);
        return frame;
    }

    /// <summary>A literal field without indexing, its name a string (RFC 7541, 6.2.2).</summary>
    private static byte[] Literal(string name, string value) =>
        [0x00, (byte)name.Length, .. System.Text.Encoding.ASCII.GetBytes(name), (byte)value.Length, .. System.Text.Encoding.ASCII.GetBytes(value)];

    private static IEnumerable<byte[]> Slices(byte[] block, int length) => Enumerable.Range(0, block.Length - length + 1).Select(i => block[i..(i + length)]);

    private sealed class Exactly(byte[] body) : IResponseValidator
    {
        public int MaxBodyLength => body.Length;

        public bool IsValid(ReadOnlySpan<byte> candidate) => candidate.SequenceEqual(body);
    }
}

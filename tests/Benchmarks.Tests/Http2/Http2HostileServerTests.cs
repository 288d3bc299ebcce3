using Benchmarks.Load.Engines;
using Benchmarks.Load.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The built-in HTTP/2 load against servers that misbehave on purpose: every fault ends in a
/// counted error with its cause, memory stays bounded, and the run ends on time.
/// </summary>
[LongRunning]
public sealed class Http2HostileServerTests
{
    private static ReadOnlySpan<byte> RefusedStream => [0, 0, 0, 7];

    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task Every_stream_reset_is_a_lost_request_named_by_its_code(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            while (true)
            {
                await peer.WriteAsync(ScriptedHttp2Server.Frame(3, 0, await peer.NextRequestAsync(stop), RefusedStream), stop);
            }
        });
        var result = await Http2LoadTests.RunAsync(server.Url, 4, connections: 2, engine: engine);
        Assert.True(result.Lost > 100 && result.Good == 0, $"{result.Lost} lost, {result.Good} good: {result.FirstError}");
        Assert.Equal("HTTP/2 stream reset by the server: REFUSED_STREAM", result.FirstError);
    }

    [Fact]
    public async Task A_goaway_with_an_error_is_named_and_the_load_opens_a_new_connection()
    {
        // Answers the first request, then GOAWAY (last stream: that one, ENHANCE_YOUR_CALM) and closes.
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            var first = await peer.NextRequestAsync(stop);
            await peer.WriteAsync(
                [.. ScriptedHttp2Server.Answer(first, "Hello, World!"), .. ScriptedHttp2Server.Frame(7, 0, 0, [0, 0, 0, (byte)first, 0, 0, 0, 0xb])], stop);
            await Task.Delay(50, stop);
        });
        var result = await Http2LoadTests.RunAsync(server.Url, 4, connections: 1);
        Assert.Equal("HTTP/2 GOAWAY from the server: ENHANCE_YOUR_CALM", result.FirstError);
        Assert.True(result.Good > 3 && server.Connections > 3, $"{result.Good} good over {server.Connections} connections");

        // The streams above the GOAWAY's last one were not processed: not lost, not counted as sent; they went again.
        Assert.True(result.Lost == 0 && result.Sent == result.Good, $"{result.Sent} sent, {result.Good} good, {result.Lost} lost");
    }

    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task A_server_that_refuses_every_connection_with_goaway_is_counted_named_and_not_spun_against(HttpLoadEngine engine)
    {
        // GOAWAY(NO_ERROR, last stream 0) as the first frame of every connection, then the connection stays open.
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            await peer.WriteAsync(ScriptedHttp2Server.Frame(7, 0, 0, [0, 0, 0, 0, 0, 0, 0, 0]), stop);
            await Task.Delay(TimeSpan.FromSeconds(10), stop);
        });
        // No warm-up: a warm-up would wait for a first answer that never comes (up to the timeout), and its connections are not counted.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var result = await Http2LoadTests.RunAsync(server.Url, 4, connections: 2, engine: engine, seconds: 1.5, warmupSeconds: 0);
        var seconds = clock.Elapsed.TotalSeconds;
        Assert.Equal("HTTP/2 GOAWAY (NO_ERROR) before any answer: the server refused the connection", result.FirstError);
        Assert.True(result.Errors.Connect >= 10 && result.Good == 0, $"{engine}: connect {result.Errors.Connect}, good {result.Good}");

        // Two connections retrying 10 ms apart: under 200 a second, where one without a pause reconnected some 1,900 times a second.
        var perSecond = server.Connections / seconds;
        Assert.True(perSecond < 300, $"{engine}: {server.Connections} connections in {seconds:0.0} s ({perSecond:0} a second); {result.Errors}");
    }

    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task A_goaway_that_comes_with_a_frame_to_acknowledge_still_replaces_the_connection(HttpLoadEngine engine)
    {
        // The first request answered, then in the same write a SETTINGS (to be acknowledged) and GOAWAY(NO_ERROR, that stream).
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            var first = await peer.NextRequestAsync(stop);
            await peer.WriteAsync(
                [.. ScriptedHttp2Server.Answer(first, "Hello, World!"), .. ScriptedHttp2Server.Frame(4, 0, 0, []), .. ScriptedHttp2Server.Frame(7, 0, 0,
                    [0, 0, 0, (byte)first, 0, 0, 0, 0])],
                stop);
            await Task.Delay(TimeSpan.FromSeconds(10), stop);
        });
        var result = await Http2LoadTests.RunAsync(server.Url, 1, connections: 1, engine: engine);
        Assert.True(result.Good > 20 && server.Connections > 20,
            $"{engine}: {result.Good} good over {server.Connections} connections; first error: {result.FirstError}");
        Assert.Equal(0, result.Errors.Total);
    }

    [Theory]
    [InlineData("continuation", "read: HTTP/2 a header block over 64 KB on stream 1 (this client's limit)")]
    [InlineData("oversized", "read: HTTP/2 FRAME_SIZE_ERROR: a Data frame of 20,000 bytes, over the 16,384 allowed")]
    [InlineData("push", "read: HTTP/2 PROTOCOL_ERROR: a PUSH_PROMISE, though this client disabled push")]
    [InlineData("compression", "read: HTTP/2 COMPRESSION_ERROR: the header block of stream 1 does not decode")]
    [InlineData("truncated", "read: the server closed the connection with requests outstanding")]
    public async Task A_protocol_error_of_the_server_ends_the_connection_with_its_cause(string fault, string cause)
    {
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            var stream = await peer.NextRequestAsync(stop);
            switch (fault)
            {
                case "continuation":
                    // A header block that never ends: 16 KB CONTINUATIONs of an endless literal value.
                    await peer.WriteAsync(ScriptedHttp2Server.Frame(1, 0, stream, [0x88]), stop);
                    for (var i = 0; i < 64; i++)
                    {
                        await peer.WriteAsync(ScriptedHttp2Server.Frame(9, 0, stream, new byte[16_384]), stop);
                    }

                    break;
                case "oversized":
                    await peer.WriteAsync(
                        [.. ScriptedHttp2Server.Frame(1, 0x4, stream, [0x88]), .. ScriptedHttp2Server.Frame(0, 0x1, stream, new byte[20_000])], stop);
                    break;
                case "push":
                    await peer.WriteAsync(ScriptedHttp2Server.Frame(5, 0x4, stream, [0, 0, 0, 2, 0x82]), stop);
                    break;
                case "compression":
                    // Index 200: past the static table, with nothing in the dynamic one.
                    await peer.WriteAsync(ScriptedHttp2Server.Frame(1, 0x5, stream, [0xff, 0x49]), stop);
                    break;
                case "truncated":
                    // Half an answer, then the end of the stream (a FIN, not a reset: the socket stays open to read).
                    await peer.WriteAsync(ScriptedHttp2Server.Answer(stream, "Hello, World!")[..20], stop);
                    peer.Socket.Shutdown(System.Net.Sockets.SocketShutdown.Send);
                    break;
            }

            await Task.Delay(TimeSpan.FromSeconds(10), stop);
        });
        // No warm-up: the window opens with the first connection, so its fault is the first error. Behind a warm-up,
        // which waits for an answer that never comes, the load reconnects to this in-process server faster than
        // it answers, and a request that times out behind the others can be the window's first error.
        var result = await Http2LoadTests.RunAsync(server.Url, 2, connections: 1, warmupSeconds: 0);
        Assert.Equal(cause, result.FirstError);
        Assert.True(result.Errors.Read > 0 && result.Good == 0, $"{result.Errors.Read} read errors, {result.Good} good");
    }

    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task A_flood_of_settings_and_pings_is_answered_in_full_and_the_requests_still_go(HttpLoadEngine engine)
    {
        const int Flood = 20_000;
        var acknowledged = 0;
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            var reading = Task.Run(
                async () =>
                {
                    var requests = new List<int>();
                    while (true)
                    {
                        var frame = await peer.ReadFrameAsync(stop);
                        if ((frame.Type is 4 or 6) && (frame.Flags & 1) != 0)
                        {
                            Interlocked.Increment(ref acknowledged);
                        }
                        else if (frame.Type == 1)
                        {
                            await peer.WriteAsync(ScriptedHttp2Server.Answer(frame.Stream, "Hello, World!"), stop);
                        }
                    }
                },
                stop);
            var burst = new List<byte>();
            for (var i = 0; i < Flood; i++)
            {
                burst.AddRange(i % 2 == 0 ? ScriptedHttp2Server.Frame(4, 0, 0, []) : ScriptedHttp2Server.Frame(6, 0, 0, new byte[8]));
            }

            await peer.WriteAsync([.. burst], stop);
            await reading;
        });
        // Three seconds: the flood is answered first, and on a busy machine (the parallel tier) that took past a one-second window.
        var result = await Http2LoadTests.RunAsync(server.Url, 4, connections: 1, engine: engine, seconds: 3);
        Assert.True(result.IsClean && result.Good > 100, $"{result.Good} good: {result.FirstError}");

        // The client's own SETTINGS is acknowledged by no one here; each of the server's is, and each PING.
        Assert.Equal(Flood, Volatile.Read(ref acknowledged));
    }

    /// <summary>
    /// A server that lowers its header table to 0 (SETTINGS_HEADER_TABLE_SIZE): the client's first
    /// request indexed its fields and the next ones referred to them; after the server's SETTINGS
    /// the next block starts with a table size update to 0, and every block after it is plain.
    /// </summary>
    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task A_server_that_lowers_its_header_table_gets_a_size_update_and_no_dynamic_table_from_then_on(HttpLoadEngine engine)
    {
        var blocks = new System.Collections.Concurrent.ConcurrentQueue<byte[]>();
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            // The requests the client sent before it read this SETTINGS may use the table; the server answers each.
            var settings = new byte[6];
            System.Buffers.Binary.BinaryPrimitives.WriteUInt16BigEndian(settings, 0x1);
            await peer.WriteAsync(ScriptedHttp2Server.Frame(4, 0, 0, settings), stop);
            while (true)
            {
                var frame = await peer.ReadFrameAsync(stop);
                if (frame.Type == 1)
                {
                    blocks.Enqueue(frame.Payload);
                    await peer.WriteAsync(ScriptedHttp2Server.Answer(frame.Stream, "Hello, World!"), stop);
                }
            }
        });
        // Three seconds: the flood is answered first, and on a busy machine (the parallel tier) that took past a one-second window.
        var result = await Http2LoadTests.RunAsync(server.Url, 4, connections: 1, engine: engine, seconds: 3);
        Assert.True(result.IsClean && result.Good > 100, $"{result.Good} good: {result.FirstError}");

        var expected = Benchmarks.Load.Protocols.Http2.Http2RequestBlock.Build(server.Url, []);
        var sent = blocks.ToList();
        var update = sent.FindIndex(b => b.SequenceEqual(expected.Shrink));
        Assert.True(update >= 1, $"no table size update among {sent.Count} blocks");
        Assert.Equal(expected.First, sent[0]);
        Assert.All(sent[1..update], b => Assert.Equal(expected.Repeat, b));
        Assert.All(sent[(update + 1)..], b => Assert.Equal(expected.Plain, b));
    }

    /// <summary>
    /// The path where the client's answers cannot be written: the server shrinks its buffers and
    /// does not read while it floods PINGs, so the client's ACKs fill its socket, the client stops
    /// reading (the epoll engine waits for the socket to take its answers), and the server's own
    /// writes stall; once the server reads again every ACK arrives, in order, and requests go.
    /// </summary>
    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task Answers_the_socket_will_not_take_wait_and_all_arrive_once_the_server_reads(HttpLoadEngine engine)
    {
        // PINGs go out a chunk at a time until one chunk is not taken within a second: the client has
        // stopped reading because the ACKs it owes fill its socket. How many that takes depends on the
        // machine's socket buffers, so the flood is sized by the stall, not by a constant.
        const int Chunk = 20_000, Cap = 2_000_000;
        var flood = 0;
        var acknowledged = 0;
        var stalled = false;
        var drained = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            try
            {
                peer.Socket.SendBufferSize = 4096;
                var burst = new byte[Chunk * 17];
                var ping = ScriptedHttp2Server.Frame(6, 0, 0, new byte[8]);
                for (var i = 0; i < Chunk; i++)
                {
                    ping.CopyTo(burst, i * 17);
                }

                Task writing;
                do
                {
                    writing = peer.WriteAsync(burst, stop);
                    flood += Chunk;
                    stalled = await Task.WhenAny(writing, Task.Delay(TimeSpan.FromSeconds(1), stop)) != writing;
                }
                while (!stalled && flood < Cap);

                // Then read in bulk, frame by frame out of each chunk, answering requests once the flood is out.
                var buffer = new byte[1 << 16];
                var held = 0;
                var waiting = new List<int>();
                while (true)
                {
                    var read = await peer.Socket.ReceiveAsync(buffer.AsMemory(held), System.Net.Sockets.SocketFlags.None, stop);
                    if (read == 0)
                    {
                        return;
                    }

                    held += read;
                    var at = 0;
                    while (held - at >= 9 && held - at >= 9 + ((buffer[at] << 16) | (buffer[at + 1] << 8) | buffer[at + 2]))
                    {
                        var length = (buffer[at] << 16) | (buffer[at + 1] << 8) | buffer[at + 2];
                        var (type, flags) = (buffer[at + 3], buffer[at + 4]);
                        var stream = ((buffer[at + 5] & 0x7F) << 24) | (buffer[at + 6] << 16) | (buffer[at + 7] << 8) | buffer[at + 8];
                        if (type == 6 && (flags & 1) != 0)
                        {
                            Interlocked.Increment(ref acknowledged);
                        }
                        else if (type == 1)
                        {
                            waiting.Add(stream);
                        }

                        at += 9 + length;
                    }

                    // One writer at a time on the socket: requests wait until the flood is out.
                    if (writing.IsCompleted)
                    {
                        foreach (var request in waiting)
                        {
                            await peer.WriteAsync(ScriptedHttp2Server.Answer(request, "Hello, World!"), stop);
                        }

                        waiting.Clear();
                    }

                    buffer.AsSpan(at, held - at).CopyTo(buffer);
                    held -= at;
                }
            }
            finally
            {
                drained.TrySetResult();
            }
        }, receiveBuffer: 4096);
        // Eight seconds: on a busy machine (the parallel tier) the client was still taking a 240,000-PING flood at four.
        var result = await Http2LoadTests.RunAsync(server.Url, 4, connections: 1, engine: engine, seconds: 8, timeoutSeconds: 10);

        // The load has closed its connection; the server may still be reading the last ACKs.
        await drained.Task.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.True(stalled, $"the server's flood of {flood} PINGs was taken in full while it did not read: nothing blocked the client's writes");
        Assert.Equal(Volatile.Read(ref flood), Volatile.Read(ref acknowledged));
        Assert.True(result.IsClean && result.Good > 10, $"{result.Good} good after a flood of {flood} PINGs: {result.FirstError}");
    }

    [Theory]
    [InlineData(HttpLoadEngine.Epoll)]
    [InlineData(HttpLoadEngine.Sockets)]
    public async Task A_server_that_never_answers_times_the_requests_out(HttpLoadEngine engine)
    {
        await using var server = new ScriptedHttp2Server(async (peer, stop) =>
        {
            while (true)
            {
                _ = await peer.ReadFrameAsync(stop);
            }
        });
        var result = await HttpLoadGenerator.RunAsync(
            new HttpLoadOptions { Url = server.Url, Http2 = true, Engine = engine, Connections = 2, PipelineDepth = 4, Duration = TimeSpan.FromSeconds(1.5),
                Warmup = TimeSpan.Zero, Timeout = TimeSpan.FromMilliseconds(500) },
            null,
            CancellationToken.None);
        Assert.Equal("request timed out", result.FirstError);
        Assert.True(result.Errors.Timeout > 0 && result.Lost >= 8, $"{result.Errors.Timeout} timeouts, {result.Lost} lost");
    }
}

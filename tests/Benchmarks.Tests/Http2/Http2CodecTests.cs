using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using Benchmarks.Load.Protocols.Http2;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Http2;

/// <summary>
/// The HTTP/2 load's codec against real servers: GETs written as our frames and our header
/// block, the answers read with our frame reader and HPACK decoder — from Kestrel over h2c and
/// over TLS (ALPN h2), and from nginx over h2c, whose encoder Huffman-codes its strings. Kestrel
/// and nginx index response fields, so later answers refer to the dynamic table the first one filled;
/// our first request indexes its fields, so the servers read the later ones from their tables.
/// </summary>
public sealed class Http2CodecTests
{
    [Theory]
    [InlineData("h2c")]
    [InlineData("h2")]
    public async Task Kestrel_answers_our_frames_and_our_decoder_reads_every_answer(string protocol)
    {
        await using var serve = await ServeProcess.StartAsync("kestrel", more: ["--protocol", protocol]);
        var url = new Uri($"{(protocol == "h2" ? "https" : "http")}://127.0.0.1:{serve.Port}/plaintext");
        var answers = await GetAsync(url, streams: 5);
        Assert.All(answers, a => Assert.Equal((200, "Hello, World!"), (a.Status, a.Body)));
    }

    [Fact]
    public async Task Nginx_answers_our_frames_over_h2c_and_our_decoder_reads_its_huffman_coded_fields()
    {
        await using var nginx = await NginxServer.StartAsync("""
            listen 127.0.0.1:{port} http2;
            location /plaintext { default_type text/plain; return 200 "Hello, World!"; }
            location / { return 404; }
            """);
        var answers = await GetAsync(new Uri($"http://127.0.0.1:{nginx.Port}/plaintext"), streams: 4);
        Assert.All(answers, a => Assert.Equal((200, "Hello, World!"), (a.Status, a.Body)));
        var missing = await GetAsync(new Uri($"http://127.0.0.1:{nginx.Port}/nothing-here"), streams: 2);
        Assert.All(missing, a => Assert.Equal(404, a.Status));
    }

    /// <summary>Opens one connection, sends <paramref name="streams"/> GETs at once, and reads each answer's status and body.</summary>
    private static async Task<List<(int Status, string Body)>> GetAsync(Uri url, int streams)
    {
        using var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(IPAddress.Loopback, url.Port);
        Stream stream = new NetworkStream(socket, ownsSocket: false);
        if (url.Scheme == Uri.UriSchemeHttps)
        {
            var tls = new SslStream(stream);
            var options = Benchmarks.Load.Core.LoadTls.ClientOptions(url, resume: true);
            options.ApplicationProtocols = [SslApplicationProtocol.Http2];
            await tls.AuthenticateAsClientAsync(options);
            Assert.Equal(SslApplicationProtocol.Http2, tls.NegotiatedApplicationProtocol);
            stream = tls;
        }

        await using var owned = stream;
        // The first request fills the server's dynamic table, the later ones refer to it.
        var request = Http2RequestBlock.Build(url, [new("User-Agent", "benchmarks")]);
        var output = new byte[64 * 1024];
        var written = 0;
        Http2Frame.Preface.CopyTo(output);
        written += Http2Frame.Preface.Length;
        written += Http2Frame.Write(output.AsSpan(written), Http2FrameType.Settings, 0, 0, []);
        for (var i = 0; i < streams; i++)
        {
            written += Http2Frame.Write(output.AsSpan(written), Http2FrameType.Headers, Http2Frame.EndHeaders | Http2Frame.EndStream, (2 * i) + 1,
                i == 0 ? request.First : request.Repeat);
        }

        await stream.WriteAsync(output.AsMemory(0, written));
        var decoder = new HpackDecoder();
        var statuses = new Dictionary<int, int>();
        var bodies = new Dictionary<int, StringBuilder>();
        var ended = new HashSet<int>();
        var block = new List<byte>();
        var buffer = new byte[64 * 1024];
        var held = 0;
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        while (ended.Count < streams)
        {
            var read = await stream.ReadAsync(buffer.AsMemory(held), deadline.Token);
            Assert.True(read > 0, "the server closed the connection before answering every stream");
            held += read;
            var at = 0;
            while (Http2Frame.TryRead(buffer.AsSpan(at, held - at), out var frame) && held - at >= Http2Frame.HeaderLength + frame.Length)
            {
                var payload = buffer.AsSpan(at + Http2Frame.HeaderLength, frame.Length);
                switch (frame.Type)
                {
                    case Http2FrameType.Settings when !frame.Has(Http2Frame.Ack):
                        var ack = new byte[Http2Frame.HeaderLength];
                        Http2Frame.Write(ack, Http2FrameType.Settings, Http2Frame.Ack, 0, []);
                        await stream.WriteAsync(ack);
                        break;
                    case Http2FrameType.Headers or Http2FrameType.Continuation:
                        Assert.True(Http2Frame.TryFragment(frame, payload, out var fragment));
                        block.AddRange(fragment);
                        if (frame.Has(Http2Frame.EndHeaders))
                        {
                            Assert.True(decoder.Decode(block.ToArray(), out var status, out _), $"stream {frame.Stream}: a compression error");
                            statuses[frame.Stream] = status;
                            block.Clear();
                        }

                        if (frame.Has(Http2Frame.EndStream))
                        {
                            ended.Add(frame.Stream);
                        }

                        break;
                    case Http2FrameType.Data:
                        (bodies.TryGetValue(frame.Stream, out var body) ? body : bodies[frame.Stream] = new()).Append(Encoding.ASCII.GetString(payload));
                        if (frame.Has(Http2Frame.EndStream))
                        {
                            ended.Add(frame.Stream);
                        }

                        break;
                    case Http2FrameType.GoAway or Http2FrameType.RstStream:
                        Assert.Fail($"the server sent {frame.Type} on stream {frame.Stream}");
                        break;
                }

                at += Http2Frame.HeaderLength + frame.Length;
            }

            Buffer.BlockCopy(buffer, at, buffer, 0, held - at);
            held -= at;
        }

        return [.. Enumerable.Range(0, streams).Select(i => (statuses.GetValueOrDefault((2 * i) + 1),
            bodies.TryGetValue((2 * i) + 1, out var b) ? b.ToString() : ""))];
    }
}

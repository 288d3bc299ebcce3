using System.Text;
using Benchmarks.Servers.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>The parser's answers that are not 400: versions it does not serve, request lines past the limit, Host, chunked bodies in many reads.</summary>
public sealed class RequestLimitParserTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("HTTP/1.2")]
    [InlineData("HTTP/2.0")]
    [InlineData("HTTP/0.9")]
    [InlineData("HTTP/3.1")]
    public void A_well_formed_version_other_than_1_0_and_1_1_is_not_supported(string version)
    {
        var text = $"GET / {version}\r\nHost: a\r\n\r\n";
        Assert.Equal(RequestParseStatus.VersionNotSupported, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(text), 8192, out _));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_request_line_past_the_limit_is_uri_too_long_whether_or_not_it_has_ended()
    {
        var line = "GET /" + new string('a', 9000);
        Assert.Equal(RequestParseStatus.UriTooLong, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(line), 8192, out _));
        Assert.Equal(RequestParseStatus.UriTooLong, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(line + " HTTP/1.1\r\nHost: a\r\n\r\n"), 8192, out _));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("")]
    [InlineData("example.com")]
    [InlineData("example.com:8080")]
    [InlineData("127.0.0.1:80")]
    [InlineData("[::1]")]
    [InlineData("[::1]:5000")]
    [InlineData("xn--bcher-kva.example")]
    public void Valid_hosts_are_accepted(string host)
    {
        var text = $"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n";
        Assert.Equal(RequestParseStatus.Complete, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(text), 8192, out _));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("a b")]
    [InlineData("a/b")]
    [InlineData("user@a")]
    [InlineData("a:80:90")]
    [InlineData("a:8x")]
    [InlineData("[::1")]
    [InlineData("[::1]x")]
    [InlineData("a?b")]
    public void Invalid_hosts_are_bad_requests(string host)
    {
        var text = $"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n";
        Assert.Equal(RequestParseStatus.BadRequest, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(text), 8192, out _));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Two_websocket_keys_are_flagged()
    {
        const string Key = "dGhlIHNhbXBsZSBub25jZQ==";
        var text = $"GET / HTTP/1.1\r\nHost: a\r\nSec-WebSocket-Key: {Key}\r\nSec-WebSocket-Key: {Key}\r\n\r\n";
        Assert.Equal(RequestParseStatus.Complete, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(text), 8192, out var head));
        Assert.True(head.WebSocketKeyRepeated);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_chunked_body_of_one_byte_chunks_arriving_in_small_reads_is_decoded_once_and_completely()
    {
        var head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        var text = new StringBuilder(head);
        for (var i = 0; i < 360_000; i++)
        {
            text.Append("1\r\n").Append((char)('a' + (i % 26))).Append("\r\n");
        }

        var bytes = Encoding.ASCII.GetBytes(text.Append("0\r\n\r\n").ToString());
        var reader = new HttpRequestReader();
        var status = RequestParseStatus.Incomplete;
        var arrived = head.Length;
        byte[] body = [];
        long consumed = 0;
        var calls = 0;
        while (status == RequestParseStatus.Incomplete)
        {
            arrived = Math.Min(bytes.Length, arrived + 16 * 1024);
            var sequence = Segments.Split(bytes[..arrived], arrived / 2);
            status = reader.TryRead(sequence, out _, out _, out var decoded, out consumed);
            body = decoded.ToArray();
            calls++;
        }

        Assert.Equal(RequestParseStatus.Complete, status);
        Assert.Equal(bytes.Length, consumed);
        Assert.Equal(360_000, body.Length);
        Assert.Equal((byte)'a', body[0]);
        Assert.Equal((byte)('a' + (359_999 % 26)), body[^1]);
        Assert.True(calls > 100, "the body arrived in many reads");
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Endless_trailers_are_refused_past_the_head_limit()
    {
        var text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n"
            + string.Concat(Enumerable.Repeat("X-Trailer: 0123456789\r\n", 1000));
        var reader = new HttpRequestReader();
        Assert.Equal(RequestParseStatus.HeadersTooLarge, reader.TryRead(Segments.Split(Encoding.ASCII.GetBytes(text)), out _, out _, out _, out _));
        var small = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX-Trailer: 1\r\n";
        Assert.Equal(RequestParseStatus.Incomplete,
            new HttpRequestReader().TryRead(Segments.Split(Encoding.ASCII.GetBytes(small)), out _, out _, out _, out _));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Framing_alone_past_the_encoded_limit_is_too_large()
    {
        // 100 bytes of body allowed: 100 one-byte chunks with long extensions exceed 8 x 100 + 64 KiB of encoding.
        var text = new StringBuilder("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (var i = 0; i < 100; i++)
        {
            text.Append("1;").Append(new string('e', 1000)).Append("\r\nx\r\n");
        }

        var reader = new HttpRequestReader(maxBodyLength: 100);
        Assert.Equal(RequestParseStatus.BodyTooLarge, reader.TryRead(Segments.Split(Encoding.ASCII.GetBytes(text.ToString())), out _, out _, out _, out _));
    }
}

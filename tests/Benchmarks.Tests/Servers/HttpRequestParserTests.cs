using System.Text;
using Benchmarks.Servers.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

public sealed class HttpRequestParserTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void A_plain_get_parses_with_method_path_and_keep_alive()
    {
        var bytes = "GET /plaintext?x=1 HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n"u8;
        Assert.Equal(RequestParseStatus.Complete, HttpRequestParser.ParseHead(bytes, 8192, out var head));
        Assert.Equal("GET", Encoding.ASCII.GetString(head.Method(bytes)));
        Assert.Equal("/plaintext", Encoding.ASCII.GetString(head.Path(bytes)));
        Assert.Equal(bytes.Length, head.HeadLength);
        Assert.False(head.Close);
        Assert.Equal(-1, head.ContentLength);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("GET /plaintext\r\nHost: a\r\n\r\n")]                          // no version
    [InlineData("GET  /plaintext HTTP/1.1\r\nHost: a\r\n\r\n")]                // double space
    [InlineData("G@T /plaintext HTTP/1.1\r\nHost: a\r\n\r\n")]                 // method not a token
    [InlineData("GET plaintext HTTP/1.1\r\nHost: a\r\n\r\n")]                  // target not origin-form
    [InlineData("GET /plaintext HTTP/1.1x\r\nHost: a\r\n\r\n")]                // not a version
    [InlineData("GET /plaintext HTTQ/1.1\r\nHost: a\r\n\r\n")]                 // not a version
    [InlineData("GET /plaintext HTTP/1.1\nHost: a\n\n")]                       // bare LF
    [InlineData("GET /plaintext HTTP/1.1\r\nHost: a\n\r\n")]                   // bare LF in a header
    [InlineData("GET /plaintext HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n")]      // obsolete line folding
    [InlineData("GET /plaintext HTTP/1.1\r\nHost : a\r\n\r\n")]                // space before colon
    [InlineData("GET /plaintext HTTP/1.1\r\nX: a\u0001b\r\nHost: a\r\n\r\n")]  // control character
    [InlineData("GET /plaintext HTTP/1.1\r\n\r\n")]                            // HTTP/1.1 without Host
    [InlineData("GET /plaintext HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")]      // two Hosts
    [InlineData("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")]
    [InlineData("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n")]
    [InlineData("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")]
    [InlineData("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n")]
    [InlineData("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n")]         // a smuggling shape
    [InlineData("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n")]    // chunked not last
    [InlineData("GET /a\rb HTTP/1.1\r\nHost: a\r\n\r\n")]                      // CR inside the line
    public void Malformed_heads_are_bad_requests(string text)
    {
        Assert.Equal(RequestParseStatus.BadRequest, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(text), 8192, out _));
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("chunked")]
    [InlineData("gzip, chunked")]
    [InlineData("gzip ,  Chunked\t")]
    public void Chunked_as_the_last_coding_frames_the_body(string codings)
    {
        var text = $"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: {codings}\r\n\r\n";
        Assert.NotEqual(RequestParseStatus.BadRequest, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(text), 8192, out var head));
        Assert.True(head.Chunked);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_head_past_the_limit_is_too_large_even_before_it_ends()
    {
        var big = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + new string('a', 9000);
        Assert.Equal(RequestParseStatus.HeadersTooLarge, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(big), 8192, out _));
        Assert.Equal(RequestParseStatus.HeadersTooLarge, HttpRequestParser.ParseHead(Encoding.ASCII.GetBytes(big + "\r\n\r\n"), 8192, out _));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Http10_closes_unless_asked_to_keep_alive_and_connection_close_is_honoured()
    {
        HttpRequestParser.ParseHead("GET / HTTP/1.0\r\n\r\n"u8, 8192, out var http10);
        Assert.True(http10.Close);
        HttpRequestParser.ParseHead("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"u8, 8192, out var kept);
        Assert.False(kept.Close);
        HttpRequestParser.ParseHead("GET / HTTP/1.1\r\nHost: a\r\nConnection: foo, Close\r\n\r\n"u8, 8192, out var closed);
        Assert.True(closed.Close);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Bodies_by_content_length_and_chunked_are_read_across_segments()
    {
        var text = "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world"
            + "POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n6\r\n world\r\n0\r\nT: 1\r\n\r\n"
            + "GET /c HTTP/1.1\r\nHost: h\r\n\r\n";
        var bytes = Encoding.ASCII.GetBytes(text);
        for (var cut = 1; cut < bytes.Length; cut += 3)
        {
            var sequence = Segments.Split(bytes, cut, cut + 7);
            var reader = new HttpRequestReader();
            var seen = new List<(string Path, string Body)>();
            while (!sequence.IsEmpty)
            {
                var status = reader.TryRead(sequence, out var head, out var headBytes, out var body, out var consumed);
                Assert.Equal(RequestParseStatus.Complete, status);
                seen.Add((Encoding.ASCII.GetString(head.Path(headBytes)), Encoding.ASCII.GetString(body)));
                sequence = sequence.Slice(consumed);
            }

            Assert.Equal([("/a", "hello world"), ("/b", "hello world"), ("/c", "")], seen);
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_body_that_has_not_all_arrived_is_incomplete()
    {
        var reader = new HttpRequestReader();
        var bytes = Encoding.ASCII.GetBytes("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nshort");
        Assert.Equal(RequestParseStatus.Incomplete, reader.TryRead(Segments.Split(bytes), out _, out _, out _, out _));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_body_past_the_limit_is_rejected()
    {
        var reader = new HttpRequestReader(maxBodyLength: 100);
        var bytes = Encoding.ASCII.GetBytes("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 101\r\n\r\n");
        Assert.Equal(RequestParseStatus.BodyTooLarge, reader.TryRead(Segments.Split(bytes), out _, out _, out _, out _));
    }
}

using System.Text;
using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Http1;
using Benchmarks.Scenarios;

namespace Benchmarks.Tests.Load;

public sealed class HttpResponseParserTests
{
    private const string Plaintext = "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\nDate: Sat, 21 Nov 2026 05:11:54 GMT\r\nServer: " +
        "Kestrel\r\n\r\nHello, World!";

    private const string Chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n5;ext=1\r\nHello\r\n8\r\n, " +
        "World!\r\n0\r\nX-Trailer: yes\r\n\r\n";

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_single_response_parses_whatever_the_split_point()
    {
        var bytes = Encoding.ASCII.GetBytes(Plaintext);
        for (var split = 0; split <= bytes.Length; split++)
        {
            var results = Feed(new HttpResponseParser(new Exact("Hello, World!")), bytes[..split], bytes[split..]);
            Assert.Equal([(200, true)], results);
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_pipelined_batch_yields_every_response_in_order_across_any_two_reads()
    {
        var batch = Encoding.ASCII.GetBytes(Plaintext + Plaintext.Replace("200 OK", "503 Busy", StringComparison.Ordinal) + Plaintext);
        for (var split = 0; split <= batch.Length; split++)
        {
            var results = Feed(new HttpResponseParser(new Exact("Hello, World!")), batch[..split], batch[split..]);
            Assert.Equal([(200, true), (503, false), (200, true)], results);
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Chunked_bodies_with_extensions_and_trailers_are_reassembled_across_reads()
    {
        var bytes = Encoding.ASCII.GetBytes(Chunked + Plaintext);
        for (var split = 0; split <= bytes.Length; split++)
        {
            var results = Feed(new HttpResponseParser(new Exact("Hello, World!")), bytes[..split], bytes[split..]);
            Assert.Equal([(200, true), (200, true)], results);
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_chunked_response_fed_one_byte_at_a_time_parses()
    {
        var bytes = Encoding.ASCII.GetBytes(Chunked);
        var results = Feed(new HttpResponseParser(new Exact("Hello, World!")), [.. bytes.Select(b => new[] { b })]);
        Assert.Equal([(200, true)], results);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_body_the_validator_rejects_is_not_a_success()
    {
        var bytes = Encoding.ASCII.GetBytes(Plaintext.Replace("Hello, World!", "Hello, Wrold!", StringComparison.Ordinal));
        Assert.Equal([(200, false)], Feed(new HttpResponseParser(new Exact("Hello, World!")), bytes));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_body_longer_than_the_validator_allows_is_rejected_without_overrunning()
    {
        var body = new string('x', 500);
        var bytes = Encoding.ASCII.GetBytes($"HTTP/1.1 200 OK\r\nContent-Length: {body.Length}\r\n\r\n{body}");
        Assert.Equal([(200, false)], Feed(new HttpResponseParser(new Exact("Hello, World!")), bytes));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Without_a_validator_only_the_status_counts()
    {
        var bytes = Encoding.ASCII.GetBytes(Plaintext + Plaintext.Replace("200 OK", "404 Not Found", StringComparison.Ordinal) + Plaintext.Replace("200 OK",
            "302 Found", StringComparison.Ordinal));
        Assert.Equal([(200, true), (404, false), (302, true)], Feed(new HttpResponseParser(), bytes));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Responses_without_a_body_complete_at_the_blank_line()
    {
        var bytes = Encoding.ASCII.GetBytes("HTTP/1.1 204 No Content\r\nServer: x\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: " +
            "0\r\n\r\n");
        Assert.Equal([(204, true), (304, true), (200, true)], Feed(new HttpResponseParser(), bytes));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Connection_close_is_reported_with_the_response()
    {
        var parser = new HttpResponseParser();
        ReadOnlySpan<byte> data = "HTTP/1.1 200 OK\r\nconnection: Close\r\ncontent-length: 2\r\n\r\nok"u8;
        Assert.Equal(ResponseParseStatus.Complete, parser.Parse(ref data));
        Assert.True(parser.ConnectionClose);
        Assert.True(data.IsEmpty);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("HTTP/1.1 2x0 OK\r\n\r\n")]
    [InlineData("SMTP/1.1 200 OK\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nNoColonHere\r\n\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n")]
    [InlineData("HTTP/1.1 200 OK\r\nServer: no length\r\n\r\n")]
    public void Malformed_responses_are_invalid(string text)
    {
        var parser = new HttpResponseParser();
        ReadOnlySpan<byte> data = Encoding.ASCII.GetBytes(text);
        var status = parser.Parse(ref data);
        Assert.Equal(ResponseParseStatus.Invalid, status);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_header_line_past_the_limit_is_invalid_rather_than_buffered_forever()
    {
        var parser = new HttpResponseParser();
        ReadOnlySpan<byte> head = "HTTP/1.1 200 OK\r\nX-Big: "u8;
        Assert.Equal(ResponseParseStatus.NeedMoreData, parser.Parse(ref head));
        var filler = new byte[4096];
        Array.Fill(filler, (byte)'a');
        var status = ResponseParseStatus.NeedMoreData;
        for (var i = 0; i < 10 && status == ResponseParseStatus.NeedMoreData; i++)
        {
            ReadOnlySpan<byte> chunk = filler;
            status = parser.Parse(ref chunk);
        }

        Assert.Equal(ResponseParseStatus.Invalid, status);
    }

    private static List<(int Status, bool Success)> Feed(HttpResponseParser parser, params byte[][] reads)
    {
        var results = new List<(int, bool)>();
        foreach (var read in reads)
        {
            ReadOnlySpan<byte> data = read;
            while (!data.IsEmpty)
            {
                var status = parser.Parse(ref data);
                Assert.NotEqual(ResponseParseStatus.Invalid, status);
                if (status == ResponseParseStatus.NeedMoreData)
                {
                    Assert.True(data.IsEmpty);
                    break;
                }

                results.Add((parser.StatusCode, parser.IsSuccess));
            }
        }

        Assert.True(parser.AtResponseBoundary, "The parser should end between responses.");
        return results;
    }

    private sealed class Exact(string body) : IResponseValidator
    {
        private readonly byte[] _body = Encoding.ASCII.GetBytes(body);

        public int MaxBodyLength => 64;

        public bool IsValid(ReadOnlySpan<byte> candidate) => candidate.SequenceEqual(_body);
    }
}

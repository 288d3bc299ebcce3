using System.Diagnostics;
using System.Text;
using Benchmarks.Servers.Http;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Servers;

/// <summary>
/// 100,000+ generated inputs — valid requests, their truncations, and random mutations — through
/// the real reader, split into random segments. The generator is the reference: it knows what
/// each valid request must parse to.
/// </summary>
public sealed class RandomizedParserTests
{
    private const int Cases = 40_000;
    private static readonly string[] s_methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

    [Trait("Tier", "Fast")]
    [Fact]
    public void Generated_valid_truncated_and_mutated_requests_never_throw_hang_or_misparse()
    {
        var random = new Random(20261121);
        var stopwatch = Stopwatch.StartNew();
        int valid = 0, truncated = 0, mutated = 0;
        for (var i = 0; i < Cases; i++)
        {
            var expected = Generate(random);
            var bytes = Encoding.ASCII.GetBytes(expected.Text);

            // Valid: parses to exactly what was generated, however it is split.
            var result = Read(bytes, random);
            Assert.True(result.Status == RequestParseStatus.Complete, $"case {i}: {result.Status} for {Escape(expected.Text)}");
            Assert.Equal(expected.Method, result.Method);
            Assert.Equal(expected.Path, result.Path);
            Assert.Equal(expected.Body, result.Body);
            Assert.Equal(expected.Close, result.Close);
            Assert.Equal(bytes.Length, result.Consumed);
            valid++;

            // Truncated: any strict prefix needs more bytes.
            var prefix = random.Next(0, bytes.Length);
            var partial = Read(bytes[..prefix], random);
            Assert.True(partial.Status == RequestParseStatus.Incomplete, $"case {i}: prefix of {prefix} gave {partial.Status} for {Escape(expected.Text)}");
            truncated++;

            // Mutated: whatever it gives, it gives it without an exception and within bounds.
            var mutant = Mutate(bytes, random);
            var outcome = Read(mutant, random);
            Assert.InRange(outcome.Consumed, 0, mutant.Length);
            mutated++;
        }

        Assert.True(valid + truncated + mutated >= 100_000);
        Assert.True(stopwatch.Elapsed < TimeSpan.FromMinutes(2), "parsing must not hang");
    }

    private static (RequestParseStatus Status, string Method, string Path, string Body, bool Close, long Consumed) Read(byte[] bytes, Random random)
    {
        var reader = new HttpRequestReader(maxBodyLength: 4096);
        var sequence = Segments.Split(bytes, random.Next(bytes.Length + 1), random.Next(bytes.Length + 1));
        var status = reader.TryRead(sequence, out var head, out var headBytes, out var body, out var consumed);
        return status == RequestParseStatus.Complete
            ? (status, Encoding.ASCII.GetString(head.Method(headBytes)), Encoding.ASCII.GetString(head.Path(headBytes)), Encoding.ASCII.GetString(body),
                head.Close, consumed)
            : (status, "", "", "", false, 0);
    }

    private static (string Text, string Method, string Path, string Body, bool Close) Generate(Random random)
    {
        var method = s_methods[random.Next(s_methods.Length)];
        var path = "/" + Word(random, 0, 12) + (random.Next(4) == 0 ? "/" + Word(random, 1, 8) : "");
        var query = random.Next(3) == 0 ? "?" + Word(random, 1, 6) + "=" + Word(random, 0, 6) : "";
        var http10 = random.Next(10) == 0;
        var text = new StringBuilder($"{method} {path}{query} HTTP/1.{(http10 ? 0 : 1)}\r\n");
        var headers = new List<string>();
        if (!http10 || random.Next(2) == 0)
        {
            headers.Add($"Host: {Word(random, 1, 10)}.test:{random.Next(1, 65536)}");
        }

        for (var h = random.Next(0, 8); h > 0; h--)
        {
            headers.Add($"X-{Word(random, 1, 10)}:{(random.Next(2) == 0 ? " " : "")}{Value(random)}{(random.Next(4) == 0 ? "\t " : "")}");
        }

        var close = http10;
        switch (random.Next(4))
        {
            case 0:
                headers.Add("Connection: close");
                close = true;
                break;
            case 1:
                headers.Add("Connection: keep-alive");
                close = false;
                break;
        }

        var body = "";
        string? bodyText = null;
        switch (random.Next(3))
        {
            case 0:
                body = Value(random);
                headers.Add($"Content-Length: {body.Length}");
                bodyText = body;
                break;
            case 1:
                var chunks = new StringBuilder();
                for (var c = random.Next(0, 4); c > 0; c--)
                {
                    var chunk = Word(random, 1, 20);
                    body += chunk;
                    chunks.Append($"{chunk.Length:x}{(random.Next(3) == 0 ? ";ext=1" : "")}\r\n{chunk}\r\n");
                }

                chunks.Append(random.Next(3) == 0 ? "0\r\nTrailer: t\r\n\r\n" : "0\r\n\r\n");
                headers.Add("Transfer-Encoding: chunked");
                bodyText = chunks.ToString();
                break;
        }

        foreach (var header in headers.OrderBy(_ => random.Next()))
        {
            text.Append(header).Append("\r\n");
        }

        text.Append("\r\n").Append(bodyText);
        return (text.ToString(), method, path, body, close);
    }

    private static byte[] Mutate(byte[] bytes, Random random)
    {
        var list = bytes.ToList();
        for (var m = random.Next(1, 4); m > 0; m--)
        {
            var at = random.Next(list.Count + 1);
            switch (random.Next(3))
            {
                case 0 when list.Count > 0:
                    list[Math.Min(at, list.Count - 1)] = (byte)random.Next(256);
                    break;
                case 1:
                    list.Insert(at, (byte)"\r\n:; \t\0x"[random.Next(8)]);
                    break;
                default:
                    if (list.Count > 0)
                    {
                        list.RemoveAt(Math.Min(at, list.Count - 1));
                    }

                    break;
            }
        }

        return [.. list];
    }

    private static string Word(Random random, int min, int max)
    {
        const string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";
        return new string([.. Enumerable.Range(0, random.Next(min, max + 1)).Select(_ => alphabet[random.Next(alphabet.Length)])]);
    }

    private static string Value(Random random)
    {
        const string alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ,;=/\"()";
        return new string([.. Enumerable.Range(0, random.Next(1, 30)).Select(_ => alphabet[random.Next(alphabet.Length)])]).Trim();
    }

    private static string Escape(string text) => text.Replace("\r", "\\r", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal);
}

using System.Text;

namespace Benchmarks.Tests.Support;

/// <summary>
/// Seeded hostile HTTP/1.1 input for a whole server: well-formed requests of every framing
/// (length, chunked with extensions and trailers, HTTP/1.0, pipelined, a WebSocket handshake),
/// then flipped, inserted, deleted, duplicated and truncated bytes, numbers made huge and runs
/// made long.
/// </summary>
internal sealed class RequestMutator
{
    private static readonly string[] s_templates =
    [
        "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /plaintext?x=1 HTTP/1.1\r\nHost: t\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n",
        "POST /plaintext HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\nhello world",
        "POST /plaintext HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n",
        "GET /plaintext HTTP/1.0\r\n\r\n",
        "HEAD /plaintext HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /plaintext HTTP/1.1\r\nHost: t\r\n\r\nGET /plaintext HTTP/1.1\r\nHost: t\r\n\r\nGET /missing HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /plaintext HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " +
        "dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\n",
    ];

    private static readonly byte[] s_interesting = "\r\n:; \t\0x0F9-+,/\"\u007f"u8.ToArray();

    private readonly Random _random;

    public RequestMutator(int seed) => _random = new Random(seed);

    public byte[] Next()
    {
        var bytes = Encoding.ASCII.GetBytes(s_templates[_random.Next(s_templates.Length)]).ToList();
        for (var m = _random.Next(1, 5); m > 0; m--)
        {
            var at = _random.Next(bytes.Count + 1);
            switch (_random.Next(8))
            {
                case 0 when bytes.Count > 0:
                    bytes[Math.Min(at, bytes.Count - 1)] = (byte)_random.Next(256);
                    break;
                case 1:
                    bytes.Insert(at, s_interesting[_random.Next(s_interesting.Length)]);
                    break;
                case 2 when bytes.Count > 0:
                    bytes.RemoveRange(Math.Min(at, bytes.Count - 1), Math.Min(_random.Next(1, 8), bytes.Count - Math.Min(at, bytes.Count - 1)));
                    break;
                case 3 when bytes.Count > 1:
                    var start = _random.Next(bytes.Count - 1);
                    var length = _random.Next(1, Math.Min(64, bytes.Count - start) + 1);
                    bytes.InsertRange(at, bytes.GetRange(start, length));
                    break;
                case 4:
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
                case 5:
                    bytes.InsertRange(at, Encoding.ASCII.GetBytes(_random.Next(3) switch
                    {
                        0 => "99999999999999999999",
                        1 => "ffffffffffffffff",
                        _ => "-1",
                    }));
                    break;
                case 6:
                    bytes.InsertRange(at, Enumerable.Repeat(s_interesting[_random.Next(s_interesting.Length)], _random.Next(100, 20_000)));
                    break;
                default:
                    bytes.InsertRange(at, Encoding.ASCII.GetBytes(_random.Next(2) == 0 ? "\r\nX-A: b\r\n" : "\r\n\r\n"));
                    break;
            }
        }

        return [.. bytes];
    }
}

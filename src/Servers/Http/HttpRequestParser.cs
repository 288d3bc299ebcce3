using System.Buffers;
using System.Buffers.Text;
using System.Runtime.CompilerServices;
using System.Text;

namespace Benchmarks.Servers.Http;

/// <summary>
/// Parses an HTTP/1.1 request head from contiguous bytes, strictly: CRLF line ends only (a bare
/// LF is a 400), no obsolete line folding, token characters in methods and header names, no
/// control characters in values, one Content-Length, never both Content-Length and
/// Transfer-Encoding. Allocation-free; re-parsing a longer prefix is how more bytes are handled.
/// </summary>
public static class HttpRequestParser
{
    public const int DefaultMaxHeadLength = 8 * 1024;

    private static readonly SearchValues<byte> s_tokenChars =
        SearchValues.Create("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"u8);

    // Control characters other than HTAB, and DEL; obs-text (0x80-0xFF) is allowed.
    private static readonly SearchValues<byte> s_forbiddenInValue = SearchValues.Create(
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127]);

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static RequestParseStatus ParseHead(ReadOnlySpan<byte> data, int maxHeadLength, out RequestHead head)
    {
        head = default;
        head.ContentLength = -1;

        var lineEnd = data.IndexOf((byte)'\n');
        if (lineEnd < 0)
        {
            return data.Length > maxHeadLength ? RequestParseStatus.UriTooLong : CheckNoBareCr(data);
        }

        if (lineEnd + 1 > maxHeadLength)
        {
            return RequestParseStatus.UriTooLong;
        }

        if (lineEnd == 0 || data[lineEnd - 1] != (byte)'\r')
        {
            return RequestParseStatus.BadRequest;
        }

        var lineStatus = ParseRequestLine(data[..(lineEnd - 1)], ref head);
        if (lineStatus != RequestParseStatus.Complete)
        {
            return lineStatus;
        }

        var position = lineEnd + 1;
        var connectionKeepAlive = false;
        while (true)
        {
            var rest = data[position..];
            lineEnd = rest.IndexOf((byte)'\n');
            if (lineEnd < 0)
            {
                return position + rest.Length > maxHeadLength ? RequestParseStatus.HeadersTooLarge : CheckNoBareCr(rest);
            }

            if (lineEnd == 0 || rest[lineEnd - 1] != (byte)'\r')
            {
                return RequestParseStatus.BadRequest;
            }

            var line = rest[..(lineEnd - 1)];
            var lineStart = position;
            position += lineEnd + 1;
            if (position > maxHeadLength)
            {
                return RequestParseStatus.HeadersTooLarge;
            }

            if (line.IsEmpty)
            {
                break;
            }

            if (!ParseHeader(line, lineStart, ref head, ref connectionKeepAlive))
            {
                return RequestParseStatus.BadRequest;
            }
        }

        if ((head.Chunked && head.ContentLength >= 0) || (!head.Http10 && !head.HasHost))
        {
            return RequestParseStatus.BadRequest;
        }

        if (head.Http10 && !connectionKeepAlive)
        {
            head.Close = true;
        }

        head.HeadLength = position;
        return RequestParseStatus.Complete;
    }

    private static RequestParseStatus CheckNoBareCr(ReadOnlySpan<byte> partialLine)
    {
        // A CR must be followed by LF; one followed by anything else can be rejected before the line ends.
        var cr = partialLine.IndexOf((byte)'\r');
        return cr >= 0 && cr < partialLine.Length - 1 ? RequestParseStatus.BadRequest : RequestParseStatus.Incomplete;
    }

    private static RequestParseStatus ParseRequestLine(ReadOnlySpan<byte> line, ref RequestHead head)
    {
        const RequestParseStatus Bad = RequestParseStatus.BadRequest;
        var space = line.IndexOf((byte)' ');
        if (space <= 0 || !IsToken(line[..space]))
        {
            return Bad;
        }

        head.MethodLength = space;
        var targetStart = space + 1;
        var rest = line[targetStart..];
        var secondSpace = rest.IndexOf((byte)' ');
        if (secondSpace <= 0)
        {
            return Bad;
        }

        var target = rest[..secondSpace];
        if ((target[0] != (byte)'/' && !(target.Length == 1 && target[0] == (byte)'*'))
            || target.IndexOfAnyInRange((byte)0, (byte)0x20) >= 0
            || target.Contains((byte)0x7F))
        {
            return Bad;
        }

        var query = target.IndexOf((byte)'?');
        head.PathStart = targetStart;
        head.PathLength = query >= 0 ? query : target.Length;
        head.QueryStart = query >= 0 ? targetStart + query + 1 : targetStart + target.Length;
        head.QueryLength = query >= 0 ? target.Length - query - 1 : 0;

        // HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3): 1.1 and 1.0 are served, any other well-formed one is 505.
        var version = rest[(secondSpace + 1)..];
        if (version.Length != 8
            || !version.StartsWith("HTTP/"u8)
            || !char.IsAsciiDigit((char)version[5])
            || version[6] != (byte)'.'
            || !char.IsAsciiDigit((char)version[7]))
        {
            return Bad;
        }

        if (version[5] != (byte)'1' || version[7] is not ((byte)'0' or (byte)'1'))
        {
            return RequestParseStatus.VersionNotSupported;
        }

        head.Http10 = version[7] == (byte)'0';
        return RequestParseStatus.Complete;
    }

    private static bool ParseHeader(ReadOnlySpan<byte> line, int lineStart, ref RequestHead head, ref bool keepAlive)
    {
        var colon = line.IndexOf((byte)':');
        if (colon <= 0 || !IsToken(line[..colon]))
        {
            // Also rejects obsolete line folding (a line starting with whitespace).
            return false;
        }

        var name = line[..colon];
        var rawValue = line[(colon + 1)..];
        var trim = Ascii.Trim(rawValue);
        var value = rawValue[trim];
        if (value.ContainsAny(s_forbiddenInValue))
        {
            return false;
        }

        switch (name.Length)
        {
            case 4 when Ascii.EqualsIgnoreCase(name, "Host"u8):
                if (head.HasHost || !HostValue.IsValid(value))
                {
                    return false;
                }

                head.HasHost = true;
                break;
            case 10 when Ascii.EqualsIgnoreCase(name, "Connection"u8):
                if (ContainsToken(value, "close"u8))
                {
                    head.Close = true;
                }

                if (ContainsToken(value, "keep-alive"u8))
                {
                    keepAlive = true;
                }

                if (ContainsToken(value, "upgrade"u8))
                {
                    head.ConnectionUpgrade = true;
                }

                break;
            case 7 when Ascii.EqualsIgnoreCase(name, "Upgrade"u8):
                head.UpgradeWebSocket = ContainsToken(value, "websocket"u8);
                break;
            case 17 when Ascii.EqualsIgnoreCase(name, "Sec-WebSocket-Key"u8):
                head.WebSocketKeyRepeated |= head.WebSocketKeyLength > 0;
                head.WebSocketKeyStart = lineStart + colon + 1 + trim.Start.GetOffset(rawValue.Length);
                head.WebSocketKeyLength = value.Length;
                break;
            case 21 when Ascii.EqualsIgnoreCase(name, "Sec-WebSocket-Version"u8):
                head.WebSocketVersion13 = value.SequenceEqual("13"u8);
                break;
            case 14 when Ascii.EqualsIgnoreCase(name, "Content-Length"u8):
                if (!Utf8Parser.TryParse(value, out long length, out var consumed)
                    || consumed != value.Length
                    || value.IsEmpty
                    || value[0] is (byte)'+' or (byte)'-'
                    || (head.ContentLength >= 0 && head.ContentLength != length))
                {
                    return false;
                }

                head.ContentLength = length;
                break;
            case 17 when Ascii.EqualsIgnoreCase(name, "Transfer-Encoding"u8):
                // Only "chunked" as the last coding is understood; anything else ("xchunked",
                // "gzip") cannot be framed, and a request that could be framed two ways is refused.
                if (!Ascii.EqualsIgnoreCase(LastCoding(value), "chunked"u8) || head.Chunked)
                {
                    return false;
                }

                head.Chunked = true;
                break;
        }

        return true;
    }

    /// <summary>The last comma-separated coding of a Transfer-Encoding value, without its surrounding spaces and tabs.</summary>
    private static ReadOnlySpan<byte> LastCoding(ReadOnlySpan<byte> value)
    {
        var comma = value.LastIndexOf((byte)',');
        return value[(comma + 1)..].Trim(" \t"u8);
    }

    private static bool ContainsToken(ReadOnlySpan<byte> value, ReadOnlySpan<byte> token)
    {
        foreach (var range in value.Split((byte)','))
        {
            var part = value[range];
            if (Ascii.EqualsIgnoreCase(part[Ascii.Trim(part)], token))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>RFC 9110 tchar: ALPHA / DIGIT / !#$%&amp;'*+-.^_`|~</summary>
    private static bool IsToken(ReadOnlySpan<byte> value) => !value.IsEmpty && !value.ContainsAnyExcept(s_tokenChars);
}

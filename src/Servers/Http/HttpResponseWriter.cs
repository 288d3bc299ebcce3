using System.Buffers;
using System.Buffers.Text;
using System.Runtime.CompilerServices;
using Benchmarks.Scenarios;

namespace Benchmarks.Servers.Http;

/// <summary>Writes a response (status line, Server, Date, Content-Type, Content-Length, body) per request, allocation-free.</summary>
public static class HttpResponseWriter
{
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    /// <param name="headOnly">A response to HEAD: the headers of the full response (its Content-Length included), no body.</param>
    public static void Write(IBufferWriter<byte> output, int statusCode, HeaderValue? contentType, ReadOnlySpan<byte> body, bool close,
        ReadOnlySpan<byte> serverLine, bool headOnly = false)
    {
        ArgumentNullException.ThrowIfNull(output);
        var contentTypeBytes = contentType is null ? default : contentType.Utf8.Span;
        var reason = StatusReasons.Get(statusCode);
        var length = 9 + 3 + 1 + reason.Length + 2 + serverLine.Length + DateHeader.Line.Length
            + (contentType is null ? 0 : 14 + contentTypeBytes.Length + 2)
            + 16 + 20 + 2 + (close ? 19 : 0) + 2 + body.Length;
        var span = output.GetSpan(length);
        var at = 0;
        Append(span, ref at, "HTTP/1.1 "u8);
        span[at++] = (byte)('0' + (statusCode / 100 % 10));
        span[at++] = (byte)('0' + (statusCode / 10 % 10));
        span[at++] = (byte)('0' + (statusCode % 10));
        span[at++] = (byte)' ';
        Append(span, ref at, reason);
        Append(span, ref at, "\r\n"u8);
        Append(span, ref at, serverLine);
        Append(span, ref at, DateHeader.Line);
        if (contentType is not null)
        {
            Append(span, ref at, "Content-Type: "u8);
            Append(span, ref at, contentTypeBytes);
            Append(span, ref at, "\r\n"u8);
        }

        Append(span, ref at, "Content-Length: "u8);
        Utf8Formatter.TryFormat(body.Length, span[at..], out var written);
        at += written;
        Append(span, ref at, "\r\n"u8);
        if (close)
        {
            Append(span, ref at, "Connection: close\r\n"u8);
        }

        Append(span, ref at, "\r\n"u8);
        if (!headOnly)
        {
            Append(span, ref at, body);
        }

        output.Advance(at);
    }

    private static void Append(Span<byte> span, ref int at, ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(span[at..]);
        at += bytes.Length;
    }
}

using System.Buffers;
using System.Buffers.Text;
using System.Text;

namespace Benchmarks.Servers.Http;

/// <summary>Decodes a chunked request body from contiguous bytes (chunk extensions and trailers allowed, CRLF only).</summary>
public static class ChunkedBodyDecoder
{
    /// <summary>
    /// Checks the whole chunked body in <paramref name="data"/>; on <see cref="RequestParseStatus.Complete"/>
    /// writes the decoded bytes to <paramref name="output"/> and sets <paramref name="consumed"/>.
    /// </summary>
    public static RequestParseStatus Decode(ReadOnlySpan<byte> data, long maxBodyLength, IBufferWriter<byte>? output, out int consumed)
    {
        var status = Walk(data, maxBodyLength, null, out consumed);
        if (status == RequestParseStatus.Complete && output is not null)
        {
            Walk(data, maxBodyLength, output, out consumed);
        }

        return status;
    }

    private static RequestParseStatus Walk(ReadOnlySpan<byte> data, long maxBodyLength, IBufferWriter<byte>? output, out int consumed)
    {
        consumed = 0;
        long total = 0;
        var position = 0;
        while (true)
        {
            var lineEnd = data[position..].IndexOf((byte)'\n');
            if (lineEnd < 0)
            {
                return data.Length - position > 1024 ? RequestParseStatus.BadRequest : RequestParseStatus.Incomplete;
            }

            if (lineEnd == 0 || data[position + lineEnd - 1] != (byte)'\r')
            {
                return RequestParseStatus.BadRequest;
            }

            var line = data.Slice(position, lineEnd - 1);
            var semicolon = line.IndexOf((byte)';');
            var hex = semicolon >= 0 ? line[..semicolon] : line;
            hex = hex[Ascii.Trim(hex)];
            if (hex.IsEmpty || hex.Length > 15 || !Utf8Parser.TryParse(hex, out long size, out var used, 'X') || used != hex.Length)
            {
                return RequestParseStatus.BadRequest;
            }

            position += lineEnd + 1;
            if (size == 0)
            {
                return SkipTrailers(data, position, out consumed);
            }

            total += size;
            if (total > maxBodyLength)
            {
                return RequestParseStatus.BodyTooLarge;
            }

            if (data.Length - position < size + 2)
            {
                return RequestParseStatus.Incomplete;
            }

            var chunk = data.Slice(position, (int)size);
            if (data[position + (int)size] != (byte)'\r' || data[position + (int)size + 1] != (byte)'\n')
            {
                return RequestParseStatus.BadRequest;
            }

            output?.Write(chunk);
            position += (int)size + 2;
        }
    }

    private static RequestParseStatus SkipTrailers(ReadOnlySpan<byte> data, int position, out int consumed)
    {
        consumed = 0;
        while (true)
        {
            var lineEnd = data[position..].IndexOf((byte)'\n');
            if (lineEnd < 0)
            {
                return RequestParseStatus.Incomplete;
            }

            if (lineEnd == 0 || data[position + lineEnd - 1] != (byte)'\r')
            {
                return RequestParseStatus.BadRequest;
            }

            position += lineEnd + 1;
            if (lineEnd == 1)
            {
                consumed = position;
                return RequestParseStatus.Complete;
            }
        }
    }
}

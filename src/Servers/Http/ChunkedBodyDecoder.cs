using System.Buffers;
using System.Buffers.Text;
using System.Text;

namespace Benchmarks.Servers.Http;

/// <summary>
/// Decodes a chunked request body (chunk extensions and trailers allowed, CRLF only) from the bytes
/// after the head, wherever they lie. A body that has not fully arrived is resumed where the last
/// whole chunk ended, so every byte is examined about once however many reads it takes.
/// </summary>
public static class ChunkedBodyDecoder
{
    /// <summary>The longest chunk-size line, extensions included.</summary>
    public const int MaxSizeLineLength = 1024;

    /// <summary>
    /// Walks <paramref name="encoded"/> from <paramref name="state"/>, writing each whole chunk's data to
    /// <paramref name="output"/>. On <see cref="RequestParseStatus.Complete"/>, <paramref name="consumed"/> is the
    /// body's encoded length; on <see cref="RequestParseStatus.Incomplete"/>, <paramref name="state"/> says where to
    /// resume once more bytes have arrived (same <paramref name="encoded"/> start, same output).
    /// </summary>
    public static RequestParseStatus Decode(in ReadOnlySequence<byte> encoded, ref ChunkedState state, in ChunkedLimits limits, IBufferWriter<byte> output,
        out long consumed)
    {
        ArgumentNullException.ThrowIfNull(output);
        consumed = 0;
        var reader = new SequenceReader<byte>(encoded);
        reader.Advance(state.Walked);
        Span<byte> lineCopy = stackalloc byte[MaxSizeLineLength];
        while (true)
        {
            if (!reader.TryReadTo(out ReadOnlySequence<byte> line, (byte)'\n'))
            {
                return reader.Remaining > MaxSizeLineLength ? RequestParseStatus.BadRequest : Incomplete(reader.Consumed, limits);
            }

            if (line.Length > MaxSizeLineLength || line.IsEmpty)
            {
                return RequestParseStatus.BadRequest;
            }

            line.CopyTo(lineCopy);
            if (!TryParseSize(lineCopy[..(int)line.Length], out var size))
            {
                return RequestParseStatus.BadRequest;
            }

            if (size == 0)
            {
                return SkipTrailers(ref reader, limits, out consumed);
            }

            if (state.Decoded + size > limits.MaxBodyLength)
            {
                return RequestParseStatus.BodyTooLarge;
            }

            if (reader.Remaining < size + 2)
            {
                return Incomplete(reader.Consumed + size + 2, limits);
            }

            foreach (var segment in reader.UnreadSequence.Slice(0, size))
            {
                output.Write(segment.Span);
            }

            reader.Advance(size);
            if (!reader.IsNext("\r\n"u8, advancePast: true))
            {
                return RequestParseStatus.BadRequest;
            }

            state.Decoded += size;
            state.Walked = reader.Consumed;
            if (state.Walked > limits.MaxEncodedLength)
            {
                return RequestParseStatus.BodyTooLarge;
            }
        }
    }

    /// <summary>A body whose framing alone (tiny chunks, long extensions) would pass the encoded limit is refused before it all arrives.</summary>
    private static RequestParseStatus Incomplete(long neededLength, in ChunkedLimits limits) =>
        neededLength > limits.MaxEncodedLength ? RequestParseStatus.BodyTooLarge : RequestParseStatus.Incomplete;

    /// <summary>chunk-size [ chunk-ext ] CR, the LF already removed.</summary>
    private static bool TryParseSize(ReadOnlySpan<byte> line, out long size)
    {
        size = 0;
        if (line.IsEmpty || line[^1] != (byte)'\r')
        {
            return false;
        }

        line = line[..^1];
        var semicolon = line.IndexOf((byte)';');
        var hex = semicolon >= 0 ? line[..semicolon] : line;
        hex = hex[Ascii.Trim(hex)];
        return !hex.IsEmpty && hex.Length <= 15 && Utf8Parser.TryParse(hex, out size, out var used, 'X') && used == hex.Length;
    }

    /// <summary>Trailer lines up to the empty line, together no longer than the head's limit.</summary>
    private static RequestParseStatus SkipTrailers(ref SequenceReader<byte> reader, in ChunkedLimits limits, out long consumed)
    {
        consumed = 0;
        var start = reader.Consumed;
        while (true)
        {
            if (!reader.TryReadTo(out ReadOnlySequence<byte> line, (byte)'\n'))
            {
                return reader.Consumed - start + reader.Remaining > limits.MaxTrailerLength
                    ? RequestParseStatus.HeadersTooLarge
                    : RequestParseStatus.Incomplete;
            }

            if (reader.Consumed - start > limits.MaxTrailerLength)
            {
                return RequestParseStatus.HeadersTooLarge;
            }

            if (line.IsEmpty || !line.Slice(line.Length - 1).FirstSpan.SequenceEqual("\r"u8))
            {
                return RequestParseStatus.BadRequest;
            }

            if (line.Length == 1)
            {
                consumed = reader.Consumed;
                return RequestParseStatus.Complete;
            }
        }
    }
}
